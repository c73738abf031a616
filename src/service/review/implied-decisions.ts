import type { Revision } from '../../contract/revision';
import type { Taker } from '../../docx';
import type { TakenBy } from './track-projection';

/**
 * What one batch decided: the changes it names, and the changes it took with them without
 * naming them (their content went with a decided container: the tracked edits inside a rejected
 * insertion or inserted row, or inside an accepted deletion or deleted row). A taken change gets
 * the verdict of the outermost named change that took it; one gone for another reason, what its
 * kind says (OpenDocx.goneAs). `takers` is the engine's answer (OpenDocx.takers) from before the batch; it is also recorded with every decided change, so
 * the track can show a change as its taker's verdict once the taker is decided that way,
 * whichever of the two was decided first (track-projection.ts).
 */
export interface BatchVerdict {
  verdict: 'in' | 'back';
  takenBy: TakenBy[];
  implied: boolean;
}

export function batchVerdicts(
  revisions: readonly Revision[],
  named: ReadonlyMap<string, 'in' | 'back'>,
  remaining: ReadonlySet<string>,
  engine: { takers: ReadonlyMap<string, readonly Taker[]>; goneAs: ReadonlyMap<string, 'accept' | 'reject'> },
): Map<string, BatchVerdict> {
  const out = new Map<string, BatchVerdict>();
  const takenByOf = (id: string): TakenBy[] => (engine.takers.get(id) ?? []).map((t) => ({ id: t.changeId, on: t.removedOn === 'accept' ? 'in' : 'back' }));
  for (const revision of revisions) {
    const id = revision.change_id;
    const verdict = named.get(id);
    if (verdict) {
      out.set(id, { verdict, takenBy: takenByOf(id), implied: false });
      continue;
    }
    if (remaining.has(id)) continue;
    const takenBy = takenByOf(id);
    const taker = [...takenBy].reverse().find((t) => named.get(t.id) === t.on);
    // Gone with no taker named (its row lost its last cell, a move lost both halves): what its kind says.
    out.set(id, { verdict: taker?.on ?? (engine.goneAs.get(id) === 'accept' ? 'in' : 'back'), takenBy, implied: true });
  }
  return out;
}
