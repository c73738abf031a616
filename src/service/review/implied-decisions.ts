import type { Revision } from '../../contract/revision';
import type { GoneWhen, Taker } from '../../docx';
import type { DecidedChange, TakenBy } from './track-projection';

/**
 * What one batch decided: the changes it names, and the changes it took with them without
 * naming them (their content went with a decided container: the tracked edits inside a rejected
 * insertion or inserted row, or inside an accepted deletion or deleted row). A taken change gets
 * the verdict of the outermost named change that took it; one gone for another reason, what its
 * kind says (OpenDocx.goneAs). `takers` is the engine's answer (OpenDocx.takers) from before the batch; it is also recorded with every decided change, so
 * the track can show a change as its taker's verdict once the taker is decided that way,
 * whichever of the two was decided first (track-projection.ts).
 *
 * The rule, so that the track depends only on the set of decisions: a change whose content would
 * be gone whatever its own verdict, because of the other decisions (of its batch, earlier ones or
 * later ones), is shown as the engine says it went: its taker's verdict when one change took it,
 * else what its kind's going amounts to (goneAs; `moot` records the condition, OpenDocx.goneWhen).
 * The log keeps the verdict the lawyer gave (`state`, not implied): the record never claims a
 * decision nobody made, and never drops one somebody made.
 */
export interface BatchVerdict {
  verdict: 'in' | 'back';
  takenBy: TakenBy[];
  implied: boolean;
  /**
   * For a named change: the changes it takes that are still listed after the batch (a paragraph
   * whose mark went waits for its neighbour before its properties go, joins.ts). Recorded so that
   * when one of them is decided later, it is still shown as this one's verdict (heldBy).
   */
  stillHolds?: string[];
  /** For a named change: when other decisions remove it whatever its verdict, and as what (track-projection.ts, effectiveState). */
  moot?: { goneWhen: GoneWhen; goneAs: 'in' | 'back' };
}

export function batchVerdicts(
  revisions: readonly Revision[],
  named: ReadonlyMap<string, 'in' | 'back'>,
  remaining: ReadonlySet<string>,
  engine: {
    takers: ReadonlyMap<string, readonly Taker[]>;
    goneAs: ReadonlyMap<string, 'accept' | 'reject'>;
    goneWhen?: ReadonlyMap<string, GoneWhen>;
  },
  /**
   * Takers decided by earlier batches that have not yet removed what they took (heldBy): outermost,
   * since a mark whose paragraph waits takes the whole paragraph's properties when it joins.
   */
  earlier: ReadonlyMap<string, readonly TakenBy[]> = new Map(),
): Map<string, BatchVerdict> {
  const out = new Map<string, BatchVerdict>();
  const takenByOf = (id: string): TakenBy[] => [
    ...(engine.takers.get(id) ?? []).map((t): TakenBy => ({ id: t.changeId, on: t.removedOn === 'accept' ? 'in' : 'back' })),
    ...(earlier.get(id) ?? []),
  ];
  const stillHolds = new Map<string, string[]>();
  for (const [id, takers] of engine.takers) {
    if (!remaining.has(id)) continue;
    for (const t of takers) {
      if (named.get(t.changeId) !== (t.removedOn === 'accept' ? 'in' : 'back')) continue;
      const list = stillHolds.get(t.changeId) ?? [];
      list.push(id);
      stillHolds.set(t.changeId, list);
    }
  }
  for (const revision of revisions) {
    const id = revision.change_id;
    const verdict = named.get(id);
    if (verdict) {
      const goneWhen = engine.goneWhen?.get(id);
      const moot = goneWhen ? { goneWhen, goneAs: engine.goneAs.get(id) === 'accept' ? 'in' as const : 'back' as const } : undefined;
      const holds = stillHolds.get(id);
      out.set(id, { verdict, takenBy: takenByOf(id), implied: false, ...(holds ? { stillHolds: holds } : {}), ...(moot ? { moot } : {}) });
      continue;
    }
    if (remaining.has(id)) continue;
    const takenBy = takenByOf(id);
    const taker = [...takenBy].reverse().find((t) => named.get(t.id) === t.on || earlier.get(id)?.includes(t));
    // Gone with no taker named (its row lost its last cell, a move lost both halves): what its kind says.
    out.set(id, { verdict: taker?.on ?? (engine.goneAs.get(id) === 'accept' ? 'in' : 'back'), takenBy, implied: true });
  }
  return out;
}

/**
 * The changes decided changes took but have not yet removed (their `stillHolds`), each with the
 * taker and its verdict: a later batch records them in the decided change's `takenBy`.
 */
export function heldBy(decided: ReadonlyMap<string, DecidedChange>): Map<string, TakenBy[]> {
  const out = new Map<string, TakenBy[]>();
  for (const [id, change] of decided) {
    if (change.implied) continue;
    for (const held of change.stillHolds ?? []) {
      if (decided.has(held)) continue;
      const list = out.get(held) ?? [];
      list.push({ id, on: change.state });
      out.set(held, list);
    }
  }
  return out;
}
