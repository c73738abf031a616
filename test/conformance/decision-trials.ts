/**
 * One trial of the decision properties (issue 11) on one document, shared by the property test
 * (test/conformance/decision-properties.test.ts) and the long run (bench/decisions.ts).
 *
 * A trial gives some of the document's changes a verdict, then decides them
 *   - at once (one batch),
 *   - in batches, in the order the trial shuffled them,
 *   - as "halves": every accepted change first, then every rejected one (and the reverse),
 * and checks:
 *   1. every way gives the same document (all story parts' XML) and the same remaining revisions;
 *   2. no batch lists a change that was not listed before it; deciding every change leaves none;
 *   3. (halves) accepting/rejecting a subset and then the rest equals deciding all at once;
 *   4. the result reads as the independent simulation of the decisions (decision-simulation.ts).
 * A batch leaves out the ids an earlier batch took with it (their content went with a decided
 * container, as the service records them); those must be gone from the listing, never still open.
 */
import { listRevisions, openDocx } from '../../src/docx/index';
import { factsOf } from '../../src/service/review/decision-facts';
import { batchVerdicts, namedVerdicts, recordOf } from '../../src/service/review/implied-decisions';
import { effectiveState, type DecidedChange } from '../../src/service/review/track-projection';
import { partsOf } from '../support/docx-files';
import { simulateDecisions, type Verdict } from './decision-simulation';

export interface TrialPlan {
  /** Change id -> verdict, for the changes this trial decides. */
  verdicts: Map<string, Verdict>;
  /** The decided ids split into batches, in posting order. */
  batches: string[][];
}

export interface TrialResult {
  decisions: number;
  batches: number;
  failures: string[];
}

/** A random plan from a seeded source: `pick(n)` returns an integer in [0, n). */
export function planTrial(ids: readonly string[], pick: (n: number) => number, opts: { decideAll?: boolean } = {}): TrialPlan {
  const verdicts = new Map<string, Verdict>();
  const share = opts.decideAll ? 1 : [1, 1, 0.5, 0.8][pick(4)]!;
  const mode = pick(4); // 0: mixed, 1: all accept, 2: all reject, 3: mixed
  for (const id of ids) {
    if (pick(1000) >= share * 1000) continue;
    verdicts.set(id, mode === 1 ? 'accept' : mode === 2 ? 'reject' : pick(2) === 0 ? 'accept' : 'reject');
  }
  const decided = [...verdicts.keys()];
  for (let i = decided.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [decided[i], decided[j]] = [decided[j]!, decided[i]!];
  }
  const count = Math.min(decided.length, 1 + pick(4));
  const batches: string[][] = Array.from({ length: Math.max(count, 1) }, () => []);
  decided.forEach((id, i) => batches[i < count ? i : pick(count)]!.push(id));
  return { verdicts, batches: batches.filter((b) => b.length > 0) };
}

function decisionOf(ids: readonly string[], verdicts: ReadonlyMap<string, Verdict>) {
  return { accept: ids.filter((id) => verdicts.get(id) === 'accept'), reject: ids.filter((id) => verdicts.get(id) === 'reject') };
}

/**
 * Story parts' XML, by part name: what the comparison holds equal. An empty element reads the
 * same written either way (`<w:p></w:p>`, copied from the source, or `<w:p/>`, rebuilt).
 */
function storyParts(bytes: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, xml] of partsOf(bytes)) {
    if (/^word\/(document|header\d*|footer\d*|footnotes|endnotes|comments|styles|numbering)\.xml$/.test(name)) {
      out[name] = xml.replace(/<([\w:]+)((?:\s[^<>]*?)?)><\/\1>/g, '<$1$2/>');
    }
  }
  return out;
}

function revisionsOf(bytes: Uint8Array) {
  return listRevisions(bytes).map((r) => `${r.change_id} ${r.kind} ${r.text_preview}`);
}

/** Decides `batches` one after the other; reports a change that appears or an implied id still open. */
export function decideInBatches(bytes: Uint8Array, verdicts: ReadonlyMap<string, Verdict>, batches: readonly string[][], failures: string[], label: string): Uint8Array {
  const doc = openDocx(bytes);
  const original = new Set(doc.changeIds());
  for (const batch of batches) {
    const listed = new Set(doc.changeIds());
    const todo = batch.filter((id) => listed.has(id));
    doc.apply(decisionOf(todo, verdicts));
    const after = doc.changeIds();
    const appeared = after.filter((id) => !listed.has(id));
    if (appeared.length) failures.push(`${label}: a batch made changes appear that were not listed: ${appeared.join(', ')}`);
    const stillOpen = after.filter((id) => todo.includes(id));
    if (stillOpen.length) failures.push(`${label}: decided changes still listed: ${stillOpen.join(', ')}`);
    for (const id of batch) if (!listed.has(id) && !original.has(id)) failures.push(`${label}: ${id} was never listed`);
  }
  return doc.toBytes();
}

function same(a: Uint8Array, b: Uint8Array, what: string, failures: string[]): void {
  const pa = storyParts(a);
  const pb = storyParts(b);
  for (const name of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
    if (pa[name] !== pb[name]) {
      failures.push(`${what}: ${name} differs${firstDifference(pa[name] ?? '', pb[name] ?? '')}`);
      return;
    }
  }
  const ra = revisionsOf(a).join('\n');
  const rb = revisionsOf(b).join('\n');
  if (ra !== rb) failures.push(`${what}: remaining revisions differ:\n${ra}\n---\n${rb}`);
}

export function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return ` at ${i}:\n  ${a.slice(Math.max(0, i - 200), i + 200)}\n  ${b.slice(Math.max(0, i - 200), i + 200)}`;
}

export function runTrial(bytes: Uint8Array, plan: TrialPlan): TrialResult {
  const failures: string[] = [];
  const { verdicts, batches } = plan;
  const decided = [...verdicts.keys()];
  const allIds = openDocx(bytes).changeIds();

  const once = decideInBatches(bytes, verdicts, [decided], failures, 'one batch');
  // Halves: the accepted ones then the rejected ones, and the reverse.
  const accepted = decided.filter((id) => verdicts.get(id) === 'accept');
  const rejected = decided.filter((id) => verdicts.get(id) === 'reject');
  const orderings: [string, string[][]][] = [[`${batches.length} batches`, batches]];
  if (accepted.length && rejected.length) orderings.push(['accepted then rejected', [accepted, rejected]], ['rejected then accepted', [rejected, accepted]]);
  for (const [label, ordering] of orderings) {
    const result = decideInBatches(bytes, verdicts, ordering, failures, label);
    same(once, result, `one batch vs ${label}`, failures);
  }
  // Everything decided: nothing may be left.
  if (decided.length === allIds.length) {
    const left = listRevisions(once);
    if (left.length) failures.push(`every change decided, yet ${left.length} listed: ${left.map((r) => r.change_id).join(', ')}`);
  }
  // Word's result: the simulation of the decisions on the original reads like the engine's output.
  const expected = simulateDecisions(bytes, verdicts);
  const actual = simulateDecisions(once, new Map());
  for (const part of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const [e, a] = [JSON.stringify(expected[part] ?? null), JSON.stringify(actual[part] ?? null)];
    if (e !== a) failures.push(`simulation differs in ${part}${firstDifference(e, a)}`);
  }
  return { decisions: decided.length, batches: batches.length, failures };
}

/**
 * The track states the service would record (src/service/review: batchVerdicts, then
 * effectiveState) for one batch and for the plan's batches: the changes whose state differs,
 * as `<kind>: <id>`. The service's HTTP test (decision-order.test.ts) checks the same on a few
 * documents; the long run counts it here.
 */
export function trackStateDifferences(bytes: Uint8Array, plan: TrialPlan): string[] {
  const once = trackStates(bytes, plan.verdicts, [[...plan.verdicts.keys()]]);
  const batched = trackStates(bytes, plan.verdicts, plan.batches);
  const kinds = new Map(openDocx(bytes).revisions().map((r) => [r.change_id, r.kind]));
  return [...new Set([...once.keys(), ...batched.keys()])].filter((id) => once.get(id) !== batched.get(id)).map((id) => `${kinds.get(id) ?? '?'}: ${id}`);
}

/** The track state of every decided change after these batches (as trackStateDifferences computes them). */
export function trackStatesOf(bytes: Uint8Array, verdicts: Record<string, Verdict>, batches: readonly string[][]): Map<string, 'in' | 'back'> {
  return trackStates(bytes, new Map(Object.entries(verdicts)), batches);
}

function trackStates(bytes: Uint8Array, verdicts: ReadonlyMap<string, Verdict>, batches: readonly string[][]): Map<string, 'in' | 'back'> {
  const doc = openDocx(bytes);
  const decided = new Map<string, DecidedChange>();
  // Read once on the baseline, as the service does (decision-facts.ts).
  const facts = factsOf(doc);
  for (const batch of batches) {
    const listed = new Set(doc.changeIds());
    const todo = batch.filter((id) => listed.has(id));
    if (!todo.length) continue;
    const revisions = doc.revisions();
    const { accept, reject } = decisionOf(todo, verdicts);
    doc.apply({ accept, reject });
    const named = new Map<string, 'in' | 'back'>([...accept.map((id) => [id, 'in'] as const), ...reject.map((id) => [id, 'back'] as const)]);
    for (const [id, v] of batchVerdicts(revisions, named, new Set(doc.changeIds()), facts, namedVerdicts(decided))) {
      decided.set(id, { ...recordOf(v), kind: null, textPreview: '', author: null, decidedAt: '', decidedByUserId: null, after: null });
    }
  }
  return new Map([...decided.keys()].map((id) => [id, effectiveState(decided, id)]));
}

/**
 * Where the track shows a change otherwise than the lawyer decided it although nothing else
 * removed it: the changes (`<kind>: <id>`) of one batch deciding the plan whose content survives
 * deciding all the others (they do not list it gone), yet whose track state is not their own
 * verdict. The facts the track reads over-approximate what a decision takes where a join's way
 * is still open on the baseline (containment.ts); this counts what that costs. One apply per
 * decided change: for the long run, not CI.
 */
export function trackOverreach(bytes: Uint8Array, plan: TrialPlan): string[] {
  const states = trackStates(bytes, plan.verdicts, [[...plan.verdicts.keys()]]);
  const kinds = new Map(openDocx(bytes).revisions().map((r) => [r.change_id, r.kind]));
  const out: string[] = [];
  for (const [id, verdict] of plan.verdicts) {
    const own = verdict === 'accept' ? 'in' : 'back';
    if (states.get(id) === own) continue;
    const others = new Map([...plan.verdicts].filter(([other]) => other !== id));
    const left = openDocx(bytes).apply(decisionOf([...others.keys()], others)).changeIds();
    if (left.includes(id)) out.push(`${kinds.get(id) ?? '?'}: ${id}`);
  }
  return out;
}
