import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Shown when a route fails to load (a stale chunk after a deploy, most often). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : 'Unknown error';
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-xl font-semibold">This page could not be shown</h1>
      <p className="mt-2 text-ink-soft">{message}</p>
      <p className="mt-4">
        Reload the page; if that does not help, go back to <Link className="link" to="/documents">the documents</Link>.
      </p>
    </main>
  );
}
