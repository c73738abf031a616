import type { Revision } from '../../contract/revision';
import { goneWhenHolds } from '../../docx';
import type { DecisionFacts } from './decision-facts';
import { removesToo, type DecidedChange, type TakenBy } from './track-projection';

/**
 * What one batch decided: the changes it names, and the changes it took with them without
 * naming them (their content went with a decided container: the tracked edits inside a rejected
 * insertion or inserted row, or inside an accepted deletion or deleted row). A taken change gets
 * the verdict of the outermost change that took it, named now or before; one gone for another
 * reason, what its kind says (goneAs). Every decided change records what could take it
 * (`takenBy`), so the track shows it as its taker's verdict once that taker is decided that way,
 * whichever of the two was decided first (track-projection.ts).
 *
 * The rule, so that the track depends only on the set of decisions: a change whose content would
 * be gone whatever its own verdict, because of the other decisions (of its batch, earlier ones or
 * later ones), is shown as the engine says it went: its taker's verdict when one change took it,
 * else what its kind's going amounts to (goneAs; `moot` records the condition). The facts are
 * the draft's baseline's (decision-facts.ts), the same for every batch. The log keeps the verdict
 * the lawyer gave (`state`, not implied): the record never claims a decision nobody made, and
 * never drops one somebody made.
 */
export interface BatchVerdict {
  verdict: 'in' | 'back';
  takenBy: TakenBy[];
  implied: boolean;
  /** A taken change: the change whose verdict took it (absent when it went with no one change). */
  takenWith?: string;
  /** When other decisions remove it whatever its verdict, and as what (track-projection.ts, effectiveState); for a taken change, what removed it. */
  moot?: { goneWhen: NonNullable<DecidedChange['goneWhen']>; goneAs: 'in' | 'back' };
}

export function batchVerdicts(
  revisions: readonly Revision[],
  named: ReadonlyMap<string, 'in' | 'back'>,
  remaining: ReadonlySet<string>,
  facts: Pick<DecisionFacts, 'takers' | 'goneAs' | 'goneWhen'>,
  /** Verdicts named by earlier batches still in effect: a taker among them took what this batch's joins removed. */
  namedBefore: ReadonlyMap<string, 'in' | 'back'> = new Map(),
): Map<string, BatchVerdict> {
  const out = new Map<string, BatchVerdict>();
  const state = (verdict: 'accept' | 'reject' | undefined): 'in' | 'back' => (verdict === 'accept' ? 'in' : 'back');
  const toVerdict = (s: 'in' | 'back' | undefined) => (s === undefined ? undefined : s === 'in' ? 'accept' as const : 'reject' as const);
  const verdictOf = (id: string) => named.get(id) ?? namedBefore.get(id);
  const takenByOf = (id: string) => (facts.takers.get(id) ?? []).map((t): TakenBy => ({ id: t.changeId, on: state(t.removedOn), ...(t.when ? { when: t.when } : {}) }));
  for (const revision of revisions) {
    const id = revision.change_id;
    const takenBy = takenByOf(id);
    const goneWhen = facts.goneWhen.get(id);
    const moot = goneWhen ? { goneWhen, goneAs: state(facts.goneAs.get(id)) } : undefined;
    const verdict = named.get(id);
    if (verdict) {
      out.set(id, { verdict, takenBy, implied: false, ...(moot ? { moot } : {}) });
      continue;
    }
    if (remaining.has(id)) continue;
    // Two changes that remove each other never count for each other (track-projection.ts, removesToo).
    const mutual = (t: TakenBy) => removesToo({ takenBy: takenByOf(t.id), goneWhen: facts.goneWhen.get(t.id) }, id);
    const taker = [...takenBy].reverse().find((t) => !mutual(t) && verdictOf(t.id) === t.on && (!t.when || goneWhenHolds(t.when, (other) => toVerdict(verdictOf(other)))));
    // Gone with no taker named (its row lost its last cell, a move lost both halves): what its kind says.
    out.set(id, { verdict: taker?.on ?? state(facts.goneAs.get(id)), takenBy, implied: true, ...(taker ? { takenWith: taker.id } : {}), ...(moot ? { moot } : {}) });
  }
  return out;
}

/** What the log records of a batch's verdict on a change (with who decided it, when and where it sits, added by the caller). */
export function recordOf(v: BatchVerdict): Pick<DecidedChange, 'state' | 'takenBy' | 'implied' | 'takenWith' | 'goneWhen' | 'goneAs'> {
  return {
    state: v.verdict, ...(v.takenBy.length ? { takenBy: v.takenBy } : {}), ...(v.implied ? { implied: true as const } : {}),
    ...(v.takenWith ? { takenWith: v.takenWith } : {}), ...(v.moot ?? {}),
  };
}

/** The verdicts named (not implied) by the batches still in effect. */
export function namedVerdicts(decided: ReadonlyMap<string, DecidedChange>): Map<string, 'in' | 'back'> {
  const out = new Map<string, 'in' | 'back'>();
  for (const [id, change] of decided) if (!change.implied) out.set(id, change.state);
  return out;
}
