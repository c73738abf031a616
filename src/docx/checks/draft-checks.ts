import type { CheckFinding, CheckView } from '../../contract/checks';
import { OpenDocx } from '../document';
import type { OpenOptions } from '../package/package';
import { checkDocument } from './check';

/**
 * The checks of a draft's bytes, both views: the draft is read as it stands, then the engine
 * accepts every change on it and rejects every change on a linked copy of its parsed parts
 * (DocxPackage.copy: no second unzip and parse). A draft without changes is read once: its
 * three views are one.
 */
export function checkDraft(bytes: Uint8Array, opts?: OpenOptions): Record<CheckView, CheckFinding[]> {
  const doc = OpenDocx.open(bytes, opts);
  const markup = doc.blocks();
  const ids = doc.changeIds();
  if (ids.length === 0) return checkDocument({ markup, accepted: markup, rejected: markup });
  // The copy's own ids: a draft never ingested may have had ids renumbered on opening (revisions/ids.ts).
  const copy = doc.copy();
  const rejected = copy.apply({ accept: [], reject: copy.changeIds() }).blocks();
  const accepted = doc.apply({ accept: ids, reject: [] }).blocks();
  return checkDocument({ markup, accepted, rejected });
}
