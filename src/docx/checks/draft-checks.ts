import type { CheckFinding, CheckView } from '../../contract/checks';
import type { Block } from '../../contract/reading';
import { OpenDocx } from '../document';
import type { OpenOptions } from '../package/package';
import { checkDocument } from './check';

/**
 * The checks of a draft's bytes, both views: the draft is read as it stands, then the engine
 * accepts every change on it and rejects every change on a linked copy of its parsed parts
 * (DocxPackage.copy: no second unzip and parse). A draft without changes is read once: its
 * three views are one. Each view is read lean (OpenDocx.blocksForChecks: no revision listing, no
 * recorded pages), which gives the checks exactly what the full reading would.
 */
export function checkDraft(bytes: Uint8Array, opts?: OpenOptions): Record<CheckView, CheckFinding[]> {
  return checkDraftReading(bytes, (doc) => doc.blocksForChecks(), opts);
}

/** checkDraft with each view read by `read` (the tests compare the lean reading with the full one, OpenDocx.blocks). */
export function checkDraftReading(bytes: Uint8Array, read: (doc: OpenDocx) => Block[], opts?: OpenOptions): Record<CheckView, CheckFinding[]> {
  const doc = OpenDocx.open(bytes, opts);
  const markup = read(doc);
  const ids = doc.changeIds();
  if (ids.length === 0) return checkDocument({ markup, accepted: markup, rejected: markup });
  // The copy's own ids: a draft never ingested may have had ids renumbered on opening (revisions/ids.ts).
  const copy = doc.copy();
  const rejected = read(copy.apply({ accept: [], reject: copy.changeIds() }));
  const accepted = read(doc.apply({ accept: ids, reject: [] }));
  return checkDocument({ markup, accepted, rejected });
}
