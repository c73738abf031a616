/**
 * A code chunk that could not be fetched (the connection dropped: "Failed to fetch dynamically
 * imported module", or its stylesheet: "Unable to preload CSS") is fetched again once the browser is back online, instead of leaving the
 * error up until a full reload. The route's navigation simply waits meanwhile.
 *
 * The browser may remember the failed fetch of that URL for the page's life, so the second try
 * asks for the same file under a query string (the server ignores it; the hashed file is the same).
 */
export function importWhenOnline<T>(load: () => Promise<T>, stylesheetTries = 3): Promise<T> {
  return load().catch(async (error: unknown) => {
    const css = stylesheetUrl(error);
    if (css && stylesheetTries > 0) {
      // Vite preloads a chunk's stylesheet with a <link>; a failed one stays in the page and would
      // be taken as loaded, so it goes before the chunk is asked for again.
      await online();
      for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) if (link.href === css) link.remove();
      return importWhenOnline(load, stylesheetTries - 1);
    }
    const url = chunkUrl(error);
    if (!url) throw error;
    await online();
    try {
      return await load();
    } catch {
      return (await import(/* @vite-ignore */ `${url}${url.includes('?') ? '&' : '?'}retry=${Date.now()}`)) as T;
    }
  });
}

/** The chunk's address from the browser's error message, or null when the error is of another kind. */
function chunkUrl(error: unknown): string | null {
  if (!(error instanceof TypeError)) return null;
  return /(?:dynamically imported module|Importing a module script failed)[^h]*(https?:\/\/\S+)/.exec(error.message)?.[1] ?? null;
}

/** The stylesheet Vite could not preload for a chunk ("Unable to preload CSS for URL"), or null. */
function stylesheetUrl(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  return /Unable to preload CSS for (\S+)/.exec(error.message)?.[1] ?? null;
}

/** Resolves when the browser says it is online (at once if it already is, after a moment to settle). */
function online(): Promise<void> {
  return new Promise((resolve) => {
    if (navigator.onLine) setTimeout(resolve, 1000);
    else window.addEventListener('online', () => resolve(), { once: true });
  });
}
