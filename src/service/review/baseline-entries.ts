import { entryState } from '../../contract/entries';
import type { Revision } from '../../contract/revision';
import type { EntryTakes, TrackEntry, TrackItem } from '../../contract/track';
import { goneWhenHolds, type GoneWhen, type OpenDocx } from '../../docx';
import type { DecisionFacts } from './decision-facts';
import type { DecidedChange } from './track-projection';

/**
 * The review's entries, formed once: from the draft as its review began (the baseline), as the
 * decision facts are (decision-facts.ts), and kept until decided. The engine groups the changes
 * of the draft as it stands (revisions/groups.ts), and a decision changes what stands between
 * the others: rejecting a move between two deleted rows leaves untracked rows between them, so
 * grouped again the rows' entry would split into two interleaved ones, and the count of entries
 * would grow with every decision. Read on the baseline, an entry keeps its members (and its
 * summary, which names them all) whatever is decided around it. The baseline is the decision
 * facts' (decision-facts.ts, baselineSha), except that a redline entry does not end the run: the
 * changes it wrote are new (grouped among themselves: `regrouped`), the others keep their entries.
 */
export interface EntryGrouping {
  /** Each baseline change's entry: its first member's id and how it reads. */
  entryOf: ReadonlyMap<string, { id: string; summary: string }>;
  /**
   * Each baseline change's page as Word last laid the baseline out (OpenDocx.pages; empty when
   * the file does not say): kept by the change once decided, when it is no longer in the draft.
   */
  pageOf: ReadonlyMap<string, number>;
  /** The label each of those pages prints (index 0 = page 1; OpenDocx.recordedPages). */
  pageLabels: readonly string[];
}

export function groupingOf(doc: OpenDocx): EntryGrouping {
  const entryOf = new Map<string, { id: string; summary: string }>();
  for (const group of doc.groups()) {
    const entry = { id: group.id, summary: group.summary };
    for (const id of group.members) entryOf.set(id, entry);
  }
  return { entryOf, pageOf: doc.pages(), pageLabels: doc.recordedPages()?.labels ?? [] };
}

/** The items with their baseline page (TrackItem.page), where the baseline gives one. */
export function withPages(items: readonly TrackItem[], grouping: EntryGrouping): TrackItem[] {
  if (!grouping.pageOf.size) return [...items];
  return items.map((item) => withPage(item, grouping));
}

/** The item with its baseline page (TrackItem.page), where the baseline gives one. */
export function withPage(item: TrackItem, grouping: EntryGrouping): TrackItem {
  const page = grouping.pageOf.get(item.id);
  return page === undefined ? item : { ...item, page, pageLabel: grouping.pageLabels[page - 1] ?? String(page) };
}

/** The revision with its baseline entry as its `group` (as `regrouped` gives it); undefined when the baseline does not hold it. */
export function inBaselineEntry(revision: Revision, grouping: EntryGrouping): Revision | undefined {
  const entry = grouping.entryOf.get(revision.change_id);
  if (!entry) return undefined;
  return revision.group === entry.id && revision.group_summary === entry.summary ? revision : { ...revision, group: entry.id, group_summary: entry.summary };
}

/** About what a cache holds of a grouping: an id and a reference per change. */
export function groupingBytes(grouping: EntryGrouping): number {
  return 96 * grouping.entryOf.size + 48 * grouping.pageOf.size + 32 * grouping.pageLabels.length;
}

/**
 * The revisions with the baseline's entries as their `group` and `group_summary` (for the track;
 * the answer's revisions keep the engine's grouping of the draft now). A change the baseline
 * does not hold keeps its edit's group when that edit is all new, else is an entry of its own:
 * a new change never joins, or splits, an entry formed before it.
 */
export function regrouped(revisions: readonly Revision[], grouping: EntryGrouping): Revision[] {
  const mixed = new Set<string>();
  for (const r of revisions) if (grouping.entryOf.has(r.change_id)) mixed.add(r.group ?? r.change_id);
  return revisions.map((r) => {
    const inEntry = inBaselineEntry(r, grouping);
    if (inEntry) return inEntry;
    if (!mixed.has(r.group ?? r.change_id)) return r;
    return { ...r, group: r.change_id, group_summary: r.text_preview };
  });
}

/**
 * The track's entries (contract/track.ts, TrackEntry), by the items' `group`, with what deciding
 * each open one takes with it (`takes`): the open changes outside it that a verdict on all its
 * members removes, as the batch would record them implied (implied-decisions.ts), read from the
 * same facts: a taker among the entry's members decided the way that removes the change (and its
 * condition holding), or the change's going-whatever-its-verdict condition holding. The verdicts
 * of earlier batches (named ones) count, as they do for a batch.
 */
export function trackEntries(
  items: readonly TrackItem[],
  facts: Pick<DecisionFacts, 'takers' | 'goneWhen'> | null,
  decided: ReadonlyMap<string, DecidedChange>,
): TrackEntry[] {
  const byEntry = new Map<string, TrackItem[]>();
  for (const item of items) {
    const key = item.group ?? item.id;
    const members = byEntry.get(key);
    if (members) members.push(item);
    else byEntry.set(key, [item]);
  }
  const takes = facts ? takesReader(items, facts, decided) : null;
  return [...byEntry].map(([id, members]) => {
    const state = entryState(members.map((m) => m.state));
    const taken = state === 'open' && takes ? takes(members) : null;
    return {
      id, members: members.map((m) => m.id), state, summary: members[0]!.groupSummary ?? members[0]!.textPreview ?? '',
      ...(taken ? { takes: taken } : {}),
    };
  });
}

/** What a taker would remove, and under which condition: the inverse of the facts' takers and conditions. */
interface Candidate {
  id: string;
  /** Taken when the taker is decided `on` (and `when` holds), or gone when `gone` holds. */
  on?: 'accept' | 'reject';
  when?: GoneWhen;
  gone?: GoneWhen;
}

function takesReader(
  items: readonly TrackItem[],
  facts: Pick<DecisionFacts, 'takers' | 'goneWhen'>,
  decided: ReadonlyMap<string, DecidedChange>,
): (members: readonly TrackItem[]) => EntryTakes | null {
  const order = new Map(items.map((item, i) => [item.id, i]));
  const byTaker = new Map<string, Candidate[]>();
  const add = (taker: string, candidate: Candidate) => {
    const list = byTaker.get(taker);
    if (list) list.push(candidate);
    else byTaker.set(taker, [candidate]);
  };
  for (const item of items) {
    if (item.state !== 'open') continue;
    for (const t of facts.takers.get(item.id) ?? []) add(t.changeId, { id: item.id, on: t.removedOn, ...(t.when ? { when: t.when } : {}) });
    const gone = facts.goneWhen.get(item.id);
    if (gone) for (const other of mentioned(gone)) add(other, { id: item.id, gone });
  }
  const before = new Map<string, 'accept' | 'reject'>();
  for (const [id, change] of decided) if (!change.implied) before.set(id, change.state === 'in' ? 'accept' : 'reject');
  return (members) => {
    // Most entries take nothing: none of their changes removes another.
    if (!members.some((m) => byTaker.has(m.id))) return null;
    const own = new Set(members.filter((m) => m.state === 'open').map((m) => m.id));
    const taken = (on: 'accept' | 'reject'): string[] => {
      const verdictOf = (id: string) => (own.has(id) ? on : before.get(id));
      const out = new Set<string>();
      for (const id of own) {
        for (const c of byTaker.get(id) ?? []) {
          if (own.has(c.id) || out.has(c.id)) continue;
          const takes = c.gone ? goneWhenHolds(c.gone, verdictOf) : c.on === on && (!c.when || goneWhenHolds(c.when, verdictOf));
          if (takes) out.add(c.id);
        }
      }
      return [...out].sort((a, b) => order.get(a)! - order.get(b)!);
    };
    const accept = taken('accept');
    const reject = taken('reject');
    return accept.length || reject.length ? { accept, reject } : null;
  };
}

function mentioned(condition: GoneWhen, out: Set<string> = new Set()): Set<string> {
  if ('all' in condition) for (const c of condition.all) mentioned(c, out);
  else if ('any' in condition) for (const c of condition.any) mentioned(c, out);
  else out.add(condition.id);
  return out;
}
