import type { Revision } from '../../contract/revision';
import type { Track } from '../../contract/track';
import type { OpenDocx } from '../../docx';
import type { ContentStore } from '../store/content-store';
import { groupingBytes, groupingOf, regrouped, trackEntries, withPages, type EntryGrouping } from './baseline-entries';
import { ByteBudgetLru } from './byte-budget-lru';
import { baselineSha, factsBytes, factsOf, withNewChanges, type DecisionFacts } from './decision-facts';
import type { StoredLogEntry } from './decision-log';
import { projectTrack, type LogState } from './track-projection';
import { letWaitingWorkIn } from '../http/let-waiting-work-in';

/** The decision log as committed with a change: its entries and their replayed state. */
export interface Committed {
  entries: readonly StoredLogEntry[];
  state: LogState;
}

/**
 * What the track reads on a content when a run of decisions starts from it: its decision facts
 * and its entries. Read where the content was written (an engine thread, for a heavy redline
 * batch) and remembered here (Baselines.remember), so the answer's track opens nothing.
 */
export interface BaselineReadings {
  facts: DecisionFacts;
  grouping: EntryGrouping;
}

/** The readings of an open draft (as `Baselines` would read them on its content). */
export function readingsOf(doc: OpenDocx): BaselineReadings {
  return { facts: factsOf(doc), grouping: groupingOf(doc) };
}

/** How the service opens drafts, and keeps them open (review-service.ts). */
export interface DraftOpener {
  open(bytes: Uint8Array): OpenDocx;
  /** The draft with this content: kept open, or opened now. The caller owns it. */
  openDraft(sha256: string, bytes: Uint8Array): OpenDocx;
  keep(sha256: string, doc: OpenDocx): void;
  warn(obj: object, msg: string): void;
}

/**
 * What drafts' baselines say, cached by content hash: the decision facts every batch records
 * (decision-facts.ts) and the entries the track lists (baseline-entries.ts), and the track made
 * from them.
 */
export class Baselines {
  /** Decision facts of drafts' baselines by content hash (decision-facts.ts): a draft's later batches read them without opening the baseline again. */
  private readonly facts = new ByteBudgetLru<DecisionFacts>(32 * 1024 * 1024);
  /** Entry groupings of drafts' baselines by content hash (baseline-entries.ts): the track's entries as the review began. */
  private readonly groupings = new ByteBudgetLru<EntryGrouping>(16 * 1024 * 1024);

  constructor(private readonly content: ContentStore, private readonly engine: DraftOpener) {}

  /**
   * The readings of the content with this hash, read elsewhere (readingsOf on the draft that
   * wrote it): what a batch or the track would otherwise read by opening that content here.
   */
  remember(sha256: string, { facts, grouping }: BaselineReadings): void {
    this.facts.set(sha256, facts, factsBytes(facts));
    this.groupings.set(sha256, grouping, groupingBytes(grouping));
  }

  /**
   * The engine's facts on the draft's changes as its baseline had them (decision-facts.ts), with
   * the open draft's for changes written since; read before the batch changes `doc`.
   */
  async decisionFacts(
    entries: readonly StoredLogEntry[], currentSha: string, currentIds: readonly string[], current: () => OpenDocx | Promise<OpenDocx>,
  ): Promise<DecisionFacts> {
    const baseline = baselineSha(entries, currentSha);
    let facts = this.facts.get(baseline);
    if (!facts && baseline === currentSha) facts = factsOf(await current());
    if (!facts) {
      try {
        facts = factsOf(this.engine.open(await this.content.get(baseline)));
      } catch (error) {
        // The baseline's content is gone (it outlived its retention): the draft's own facts then.
        this.engine.warn({ err: error, baseline }, 'decision facts read on the draft: its baseline could not be read');
        return factsOf(await current());
      }
    }
    this.facts.set(baseline, facts, factsBytes(facts));
    const known = facts.ids;
    return baseline !== currentSha && currentIds.some((id) => !known.has(id)) ? withNewChanges(facts, factsOf(await current())) : facts;
  }

  /**
   * The entries as the review began (baseline-entries.ts): the grouping of the draft's content
   * before its first decision, cached by that content's hash; on the draft's own content (no
   * decision yet), read on `current` (before the batch changes it). A baseline whose content is
   * gone gives the draft's own grouping.
   */
  async entryGrouping(entries: readonly StoredLogEntry[], currentSha: string, current: () => OpenDocx | Promise<OpenDocx>): Promise<EntryGrouping> {
    const baseline = baselineSha(entries, currentSha, { acrossRedlines: true });
    const known = this.groupings.get(baseline);
    if (known) return known;
    let grouping: EntryGrouping;
    if (baseline === currentSha) grouping = groupingOf(await current());
    else {
      try {
        grouping = groupingOf(this.engine.open(await this.content.get(baseline)));
      } catch (error) {
        this.engine.warn({ err: error, baseline }, 'entries formed on the draft: its baseline could not be read');
        return groupingOf(await current());
      }
    }
    this.groupings.set(baseline, grouping, groupingBytes(grouping));
    return grouping;
  }

  /**
   * The track of a content with this log: the projection (track-projection.ts) of its revisions
   * grouped into the baseline's entries, with the entries listed and what deciding each takes
   * with it (baseline-entries.ts), read on the decision facts a batch would use. The facts need
   * the draft open only when they are not cached (no batch yet in this process). Each step is
   * tens of milliseconds on a long draft (thousands of changes): other requests (a health check)
   * are let in between them.
   */
  async track(sha256: string, { entries, state }: Committed, revisions: Revision[], proposals?: ReadonlyMap<string, { userId: string | null }>): Promise<Track> {
    let doc: OpenDocx | null = null;
    const current = async () => (doc ??= this.engine.openDraft(sha256, await this.content.get(sha256)));
    try {
      const grouping = await this.entryGrouping(entries, sha256, current);
      const track = projectTrack(state, regrouped(revisions, grouping), proposals);
      await letWaitingWorkIn();
      const facts = track.counts.open ? await this.decisionFacts(entries, sha256, revisions.map((r) => r.change_id), current) : null;
      const items = withPages(track.items, grouping);
      await letWaitingWorkIn();
      return { ...track, items, entries: trackEntries(track.items, facts, state.decided) };
    } finally {
      if (doc) this.engine.keep(sha256, doc);
    }
  }
}
