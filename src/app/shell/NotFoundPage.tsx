import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-xl p-8">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="mt-2">
        There is nothing at this address. Go to <Link className="link" to="/documents">the documents</Link>.
      </p>
    </div>
  );
}
