/**
 * Reads started before the app has loaded (opening-reads.ts), held until the app asks for the
 * same thing: the same URL with the same session and preference. Each is taken once, and only
 * while the page is opening: asked for later, the app fetches afresh (the draft may have
 * changed meanwhile).
 */
const HELD_FOR_MS = 20_000;

interface Held {
  response: Promise<Response>;
  at: number;
}

const held = new Map<string, Held>();

/** The request headers that make two reads of one URL the same read (lower-case names). */
function keyOf(url: string, headers: Readonly<Record<string, string>>): string {
  return [url, headers.authorization ?? '', headers['x-org-id'] ?? '', headers.prefer ?? ''].join('\n');
}

/** Starts a GET of `url` and holds its answer for the app. */
export function holdRead(url: string, headers: Record<string, string>): void {
  const response = fetch(url, { headers });
  // A failure is the app's to report when it takes the read; held alone it is not an unhandled rejection.
  response.catch(() => undefined);
  held.set(keyOf(url, headers), { response, at: performance.now() });
}

/** The held answer of this GET, once; null when none is held (or it is no longer the page's opening). */
export function takeHeldRead(url: string, headers: Readonly<Record<string, string>>): Promise<Response> | null {
  const key = keyOf(url, headers);
  const read = held.get(key);
  held.delete(key);
  return read && performance.now() - read.at <= HELD_FOR_MS ? read.response : null;
}
