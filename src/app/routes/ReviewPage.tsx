export function ReviewPage() {
  return <h1>Review</h1>;
}
