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

/**
 * Prefixes of the bookmarks the render variant puts before a mark to say what it is: a run's or
 * paragraph's or table's formatting change (the name goes on with a serial and the description,
 * URI-encoded: "_rlfmt_3_Formatted%3A%20Bold"), each half of a move and the start and end of a
 * proposal (with a serial and the change id), and a drawing docx-preview leaves blank (see
 * docx/render/objects.ts). The app shows each mark for what it is. Two say what accepting
 * everything takes away that "No markup" would otherwise still show (with a serial): a deleted
 * paragraph mark (at the end of its paragraph, which joins the next) and a deleted table row (in
 * its first paragraph).
 */
export const MARK_PREFIX = {
  run: '_rlfmt_', paragraph: '_rlpfmt_', table: '_rltfmt_', moveFrom: '_rlmvf_', moveTo: '_rlmvt_', proposalStart: '_rlprs_', proposalEnd: '_rlpre_', chart: '_rlchart_',
  markGone: '_rlpgone_', rowGone: '_rlrgone_',
} as const;
