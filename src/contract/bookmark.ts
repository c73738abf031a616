/**
 * The bookmark the render variant places at the start of a change, so the app can
 * scroll to it. docx-preview renders each `w:bookmarkStart` as `<span id="NAME">`,
 * so the name must be a valid, unique HTML id as well as a Word bookmark name
 * (letters, digits and underscores; at most 40 characters). The leading underscore
 * makes Word treat it as a hidden bookmark, so it never shows in Word's bookmark list.
 *
 * The engine and the app both call this one function; never spell the name elsewhere.
 */
export function changeBookmarkName(changeId: string): string {
  const safe = changeId.replace(/[^A-Za-z0-9_]/g, '_');
  return `_rl_${safe}`.slice(0, 40);
}

/**
 * A move is one change with two places: its bookmark (changeBookmarkName) sits where it is
 * listed (its first half), and this one at its other half, so the app can jump to both.
 */
export function moveOtherHalfBookmarkName(changeId: string): string {
  const safe = changeId.replace(/[^A-Za-z0-9_]/g, '_');
  return `_rl_${safe}`.slice(0, 37) + '_mv';
}
