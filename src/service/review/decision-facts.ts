import type { GoneWhen, OpenDocx, Taker } from '../../docx';

/**
 * What the engine says of a draft's changes that the track needs to show a decided change the
 * same way whatever the order of the decisions (implied-decisions.ts): which decisions would take
 * each change with them (takers), when other decisions remove it whatever its own verdict
 * (goneWhen), and what its going amounts to (goneAs).
 *
 * They are read once, on the draft as it stood before its first decision (the baseline), not
 * before each batch. Read before each batch they would depend on the batches before: a paragraph
 * whose mark an earlier batch took joins a neighbour that was a paragraph, a control boundary or
 * a table then, and the changes its join takes are no longer the ones one batch deciding
 * everything would see. Read on the baseline, every batch records the same facts, so the track
 * depends only on which changes were decided. Changes the baseline does not hold (written by
 * redline edits since) are read on the draft before the batch.
 */
export interface DecisionFacts {
  /** The changes these facts cover. */
  ids: ReadonlySet<string>;
  takers: ReadonlyMap<string, readonly Taker[]>;
  goneWhen: ReadonlyMap<string, GoneWhen>;
  goneAs: ReadonlyMap<string, 'accept' | 'reject'>;
}

export function factsOf(doc: OpenDocx): DecisionFacts {
  return { ids: new Set(doc.changeIds()), ...doc.containment(), goneAs: doc.goneAs() };
}

/** The baseline's facts, with the current draft's for the changes the baseline does not hold. */
export function withNewChanges(baseline: DecisionFacts, current: DecisionFacts): DecisionFacts {
  const added = [...current.ids].filter((id) => !baseline.ids.has(id));
  if (!added.length) return baseline;
  const takers = new Map(baseline.takers);
  const goneWhen = new Map(baseline.goneWhen);
  const goneAs = new Map(baseline.goneAs);
  for (const id of added) {
    const t = current.takers.get(id);
    if (t) takers.set(id, t);
    const g = current.goneWhen.get(id);
    if (g) goneWhen.set(id, g);
    const a = current.goneAs.get(id);
    if (a) goneAs.set(id, a);
  }
  return { ids: new Set([...baseline.ids, ...added]), takers, goneWhen, goneAs };
}

/** The log entries the baseline is read from (decision-log.ts, StoredLogEntry). */
interface ContentStep {
  kind: 'decide' | 'undo' | 'comment' | 'note' | 'redline';
  previousSha256: string;
  nextSha256: string;
}

/**
 * The content the draft's current run of decisions started from: going back from the current
 * content through the log while each entry led to the content after it, the content before the
 * earliest decide-entry reached. The run ends (going back) at a redline entry, which wrote new
 * changes around the old ones, and at a break in the chain (a saved draft replaced the content
 * outside the log). With no decision in the run, the current content: the coming batch is its first.
 * `acrossRedlines`: a redline entry does not end the run (the review's entries, baseline-entries.ts:
 * the changes it wrote are new, the others keep their entries).
 */
export function baselineSha(entries: readonly ContentStep[], currentSha: string, { acrossRedlines = false } = {}): string {
  let expected = currentSha;
  let baseline = currentSha;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.nextSha256 !== expected || (entry.kind === 'redline' && !acrossRedlines)) break;
    if (entry.kind === 'decide') baseline = entry.previousSha256;
    expected = entry.previousSha256;
  }
  return baseline;
}

/** About what a cache holds of these facts: an id and a small record per change, more for nested conditions. */
export function factsBytes(facts: DecisionFacts): number {
  return 64 * facts.ids.size + 160 * (facts.takers.size + facts.goneWhen.size);
}
