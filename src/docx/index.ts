/**
 * The OOXML revision engine: pure TypeScript, bytes in, bytes out. The service calls these
 * functions; each parses the .docx once. For several operations on one draft, use `openDocx`.
 *
 * Decisions where the interface is silent (details beside the code that implements them):
 * - change_id is `c<w:id>`; ingest makes w:id unique across all kinds and parts, keeping ids that
 *   already are, so a change id lives as long as its change (revisions/ids.ts, changes.ts).
 * - ordinal: document order per part, parts in the order body, headers, footers, footnotes,
 *   endnotes, comments, then styles and numbering (package/package.ts). A paragraph-mark change
 *   counts at the end of its paragraph.
 * - A move (all w:moveFrom/w:moveTo halves of one move name) is ONE change, listed where its first
 *   half appears, kind delete (source first) or insert, preview "Moved: ..."; deciding it decides
 *   both halves and removes the move ranges (revisions/changes.ts).
 * - A proposed control is one change with the tracked insertions inside it (revisions/changes.ts).
 * - Both tracked boundaries of a content control (w:customXml*Range*) are one change; a moved
 *   control's boundaries belong to the move inside it (revisions/sites.ts, changes.ts, apply.ts).
 * - A complex field deleted or inserted in parts around untracked field code is one change, and
 *   the code goes with it (revisions/fields.ts).
 * - Revisions inside mc:Fallback are Word's copy of the mc:Choice content: not listed, decided
 *   with their Choice twin (revisions/sites.ts).
 */
import type { Revision } from '../contract/revision';
import { OpenDocx } from './document';
import type { RedlineEdit, RedlineOptions } from './redline/write';
import type { OpenOptions } from './package/package';

export { DocxError, UnknownChangeIdsError, ConflictingChangeIdsError, EditNotFoundError, EditAnchorError, CommentAnchorError, UnknownCommentError } from './errors';
export type { AnchorCandidate, EditAnchorProblem } from './errors';
export type { CommentTarget } from './comments/comments';
export type { NewComment } from './comments/parts';
export type { DocxErrorCode, WorkLimit } from './errors';
export type { WorkLimits } from './package/work-limits';
export type { ReadLimits } from './zip/limits';
export type { OpenOptions } from './package/package';
export { checkWrittenWork } from './package/package';
export type { DeflateLevel, ZipCodec } from './zip/codec';
export { portableCodec } from './zip/codec';
export { DEFAULT_LIMITS } from './zip/limits';
export type { RedlineEdit, RedlineOptions } from './redline/write';
export { OpenDocx } from './document';
export type { GoneWhen, Taker } from './revisions/containment';
export type { EditGroup } from './revisions/groups';
export type { ParagraphLabel } from './numbering/labels';
export type { RecordedPages } from './pages/recorded-pages';
export { holds as goneWhenHolds, mentions as goneWhenMentions } from './revisions/containment';
export { compareDocx } from './compare/compare';
export type { CompareOptions, CompareDifference, CompareResult, CompareStories } from './compare/compare';
export type { PendingSummary } from './compare/pending';

/** Opens a .docx once for several operations (list, apply, redline, render, write). */
export function openDocx(bytes: Uint8Array, opts?: OpenOptions): OpenDocx {
  return OpenDocx.open(bytes, opts);
}

/**
 * Safe read and validation of an upload, then unique ids for every revision. Ids that are already
 * unique are kept, so ingesting an ingested draft changes nothing (the same bytes come back).
 */
export function ingestDocx(bytes: Uint8Array, opts?: OpenOptions): { bytes: Uint8Array; revisionCount: number } {
  const doc = OpenDocx.open(bytes, opts);
  return { bytes: doc.renumbered ? doc.toBytes() : bytes, revisionCount: doc.revisionCount };
}

export function listRevisions(bytes: Uint8Array, opts?: { justifications?: ReadonlyMap<string, string> }): Revision[] {
  return OpenDocx.open(bytes).revisions(opts);
}

/** Accepts and rejects changes by change_id; atomic (throws before changing anything). */
export function applyDecisions(bytes: Uint8Array, decision: { accept: readonly string[]; reject: readonly string[] }): Uint8Array {
  return OpenDocx.open(bytes).apply(decision).toBytes();
}

/** The .docx made for display in docx-preview (bookmark per change, visible markers). */
export function buildRenderVariant(bytes: Uint8Array): Uint8Array {
  return OpenDocx.open(bytes).renderVariant();
}

export function writeRedlines(
  bytes: Uint8Array,
  edits: readonly RedlineEdit[],
  opts: RedlineOptions,
): { bytes: Uint8Array; changes: { editIndex: number; changeIds: string[] }[] } {
  const doc = OpenDocx.open(bytes);
  const changes = doc.writeRedlines(edits, opts);
  return { bytes: doc.toBytes(), changes };
}
