/**
 * The reads of a page that opens a draft, without the schemas: the opening's first script
 * (src/app/opening-reads.ts) asks for them before the app and zod have loaded, so it must not
 * import routes.ts. routes.ts takes these paths from here; the answers are described there.
 */
export const API_BASE_PATH = '/api';

/** The paths of the three reads (ROUTES.getReview, getRender, getRenderWindow). */
export const DRAFT_READ_PATHS = {
  review: '/documents/{documentId}/review',
  render: '/documents/{documentId}/render',
  renderWindow: '/documents/{documentId}/render-window',
} as const;

/** The preference (RFC 7240) that asks for the minimal review answer (ReviewMinimalResponse). */
export const PREFER_MINIMAL = 'return=minimal';

/** The render window's query for the change the review opens at (RenderWindowQuery `at`). */
export const OPENING_WINDOW_QUERY = { at: 'here' } as const;

/** A path template with its `{name}` parameters filled in, each URI-encoded. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}
