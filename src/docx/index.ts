/**
 * The OOXML revision engine: pure TypeScript, bytes in, bytes out. The service calls these
 * functions; each parses the .docx once. For several operations on one draft, use `openDocx`.
 */
import type { Revision } from '../contract/revision';
import { OpenDocx } from './document';
import type { RedlineEdit, RedlineOptions } from './redline/write';
import type { ReadLimits } from './zip/limits';

export { DocxError, UnknownChangeIdsError, ConflictingChangeIdsError, EditNotFoundError } from './errors';
export type { DocxErrorCode } from './errors';
export type { ReadLimits } from './zip/limits';
export { DEFAULT_LIMITS } from './zip/limits';
export type { RedlineEdit, RedlineOptions } from './redline/write';
export { OpenDocx } from './document';

/** Opens a .docx once for several operations (list, apply, redline, render, write). */
export function openDocx(bytes: Uint8Array, limits?: Partial<ReadLimits>): OpenDocx {
  return OpenDocx.open(bytes, limits);
}

/**
 * Safe read and validation of an upload, then unique ids for every revision. Ids that are already
 * unique are kept, so ingesting an ingested draft changes nothing (the same bytes come back).
 */
export function ingestDocx(bytes: Uint8Array, limits?: Partial<ReadLimits>): { bytes: Uint8Array; revisionCount: number } {
  const doc = OpenDocx.open(bytes, limits);
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
