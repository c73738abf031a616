import type { RevisionKind } from '../../contract/revision';
import { DocxPackage, type OpenOptions } from '../package/package';
import { groupChanges } from '../revisions/changes';
import { editGroups } from '../revisions/groups';
import { assignUniqueIds } from '../revisions/ids';
import { previewOf } from '../revisions/preview';
import { scanPart, type PartScan } from '../revisions/sites';
import { walk, type XmlElement } from '../xml/tree';
import { Interner } from './diff';
import { isContentNote, normaliseContainers } from './containers';
import { DecidedStories, decideEverything } from './decided';
import { decideOlderAgainst, entryCount, pendingKeys, scanRevisionStories, storiesText, type PendingKeys, type PendingSummary } from './pending';
import { PackageImport } from './import';
import { Plan, RevisionWriter } from './mark';
import { characterEnd, StoryReader, tokenEnd } from './model';
import { dropIgnoredDifferences, type IgnoredDifferences } from './ignored';
import { Numbering } from './numbering';
import { StoryComparison } from './story';

/**
 * Comparing two versions of a document into a redline: newer's document carrying, as tracked
 * changes, every difference from older. Accepting every change gives newer's text; rejecting
 * every change gives older's.
 *
 * Inputs that carry tracked changes are read in their accepted view (as Word compares), or
 * their rejected view. With `keepNewerRevisions` (the untracked-edit check: rejected views),
 * newer's own tracked changes stay as they are and the differences between the rejected views
 * are added beside them, so whatever newer changed without tracking becomes a change to review.
 */
export interface CompareOptions extends IgnoredDifferences {
  /** Author of every change; default 'Comparison'. */
  author?: string;
  /** ISO 8601 date of every change; the caller passes the newer version's upload time. Default: now. */
  date?: string;
  /** How inputs that carry tracked changes are read; default 'accepted'. */
  view?: 'accepted' | 'rejected';
  /** Keep newer's own tracked changes untouched and add the differences beside them (use with view 'rejected'). */
  keepNewerRevisions?: boolean;
  /**
   * With `keepNewerRevisions`: older's pending changes that newer no longer holds pending are each
   * a difference (pending.ts decides older so they read unlike newer's rejected view); without,
   * older is read wholly in `view`, and one newer resolved the way that view reads is no difference.
   */
  showOlderPending?: boolean;
  /** What the diff compares: whole words (default), or single characters (Word's "Show changes at character level"). */
  granularity?: 'word' | 'character';
  /** Whether moved paragraphs and passages are found as moves (default true); else each is a deletion and an insertion. */
  moves?: boolean;
  /** Which stories besides the body are compared (all by default); one left out keeps newer's content as it is. */
  stories?: CompareStories;
  /**
   * Only the differences are wanted (the untracked check): the redline is planned and listed but
   * not serialised and zipped, and `bytes` is empty. On a 600-page pair that is a tenth of the work.
   */
  listOnly?: boolean;
  open?: OpenOptions;
}

export interface CompareStories {
  headersFooters?: boolean;
  /** Footnotes and endnotes. */
  notes?: boolean;
  textBoxes?: boolean;
}

export interface CompareDifference {
  /** The listing kind (a move: the kind of its first half). */
  kind: RevisionKind;
  /** Part name of the story, e.g. 'word/document.xml', 'word/header1.xml', 'word/footnotes.xml'. */
  story: string;
  /** 0-based index, among newer's paragraphs of the story in document order, of the paragraph the change is in (or before). */
  paragraph: number;
  textPreview: string;
}

export interface CompareResult {
  /** Newer's .docx carrying the differences as tracked changes (empty with `listOnly`). */
  bytes: Uint8Array;
  differences: CompareDifference[];
  /**
   * How many entries a review lists for the differences: what Word shows as one edit (a replaced
   * word: its deletion and insertion) is one entry (revisions/groups.ts).
   */
  entries: number;
  /** The pending tracked changes each version held, and what the comparison did with them. */
  pending: PendingSummary;
}

export function compareDocx(older: Uint8Array, newer: Uint8Array, options: CompareOptions = {}): CompareResult {
  const view = options.view ?? 'accepted';
  const keep = options.keepNewerRevisions === true;
  const newPkg = DocxPackage.open(newer, options.open);
  normaliseContainers(newPkg);
  // Newer's own scans (made to resolve its changes, or to number ours after its own): the blocks
  // they found nothing in and nobody touched since are not walked again by the scan of the result.
  const resolved = keep ? null : resolveAll(newPkg, view);
  const scanned = resolved?.scans ?? scanStories(newPkg);
  const newerPending = keep ? pendingKeys([...scanned.values()]) : null;
  const firstId = keep ? highestRevisionId(newPkg, scanned) + 1 : 1;
  const rw = new RevisionWriter(options.author ?? 'Comparison', options.date ?? new Date().toISOString(), firstId);
  // Kept, newer's own changes stay in its tree; the view compared is the engine's decision of a copy.
  const decided = keep ? new DecidedStories(newPkg, view) : null;
  const { plan, older: olderPending } = planChanges(older, newPkg, rw, options, decided, newerPending);
  plan.write();
  const newerCount = newerPending ? entryCount(newerPending) : resolved!.changes;
  const pending: PendingSummary = {
    treatment: keep ? 'kept' : view, older: olderPending.older, newer: newerCount, kept: keep ? newerCount : 0,
    olderStillPending: olderPending.stillPending, olderResolved: keep && options.showOlderPending ? olderPending.older - olderPending.stillPending : 0,
  };

  // Unique ids for every revision (what ingest would do), then the listing of our changes.
  let scans = newPkg.stories().map(({ part, doc }) => scanPart(part.name, part.role, doc, scanned.get(part.name)));
  assignUniqueIds(scans);
  if (dropIgnoredDifferences(scans, rw.written, options)) scans = newPkg.stories().map(({ part, doc }) => scanPart(part.name, part.role, doc));
  const { differences, entries } = listDifferences(scans, rw.written, plan.fromOlder);
  return { bytes: options.listOnly ? new Uint8Array(0) : newPkg.toBytes(), differences, entries, pending };
}

/**
 * Reads older and plans every change into newer's tree (deleted content is already copied in).
 * Older's parsed package is not needed once this returns, so it can be collected before newer
 * is rebuilt and written: a 300-page comparison never holds both trees and the output at once.
 */
function planChanges(
  older: Uint8Array, newPkg: DocxPackage, rw: RevisionWriter, options: CompareOptions, decided: DecidedStories | null, newerPending: PendingKeys | null,
): { plan: Plan; older: { older: number; stillPending: number } } {
  const view = options.view ?? 'accepted';
  const oldPkg = DocxPackage.open(older, options.open);
  normaliseContainers(oldPkg);
  const olderPending = decided && newerPending && options.showOlderPending
    ? decideOlderAgainst(oldPkg, newerPending, () => storiesText(newPkg.stories().map(({ doc }) => decided.read(doc.root))))
    : { older: resolveAll(oldPkg, view).changes, stillPending: 0 };
  const plan = new Plan(rw);
  const olderNumbering = new Numbering(oldPkg);
  const newerNumbering = new Numbering(newPkg);
  const importer = new PackageImport(oldPkg, newPkg, olderNumbering, newerNumbering);
  const interner = new Interner();
  const symbols = new Map<string, string>();
  const notePairs = new Map<string, string>();
  const stories = options.stories ?? {};
  const tokenEndAt = options.granularity === 'character' ? characterEnd : tokenEnd;
  for (const pair of storyPairs(oldPkg, newPkg, notePairs, stories)) {
    const ctx = {
      older: new StoryReader(importer.relationshipKey(oldPkg, pair.olderPart), symbols, (id) => olderNumbering.key(id), null, tokenEndAt),
      newer: new StoryReader(importer.relationshipKey(newPkg, pair.newerPart), symbols, (id) => newerNumbering.key(id), decided, tokenEndAt),
      olderPart: pair.olderPart,
      newerPart: pair.newerPart,
      plan,
      rw,
      importer,
      interner,
      notePairs,
      moves: options.moves !== false,
      textBoxes: stories.textBoxes !== false,
    };
    const story = new StoryComparison(ctx);
    for (const [o, n] of pair.containers()) story.container(ctx.older.blocks(o), ctx.newer.blocks(n), n);
    story.finish();
    for (const tail of ctx.newer.backwardJoins) plan.backwardJoin(tail);
  }
  importer.finish();
  return { plan, older: olderPending };
}

/** Accepts (or rejects) every tracked change of a package in place; the scans it made, by part, and how many entries it decided. */
function resolveAll(pkg: DocxPackage, view: 'accepted' | 'rejected'): { scans: Map<string, PartScan>; changes: number } {
  // Only parts whose text can hold revision markup are scanned (most parts of most inputs hold none).
  const scans = scanRevisionStories(pkg);
  const changes = decideEverything(scans, view, true);
  return { scans: new Map(scans.map((s) => [s.part, s])), changes };
}


function scanStories(pkg: DocxPackage): Map<string, PartScan> {
  return new Map(pkg.stories().map(({ part, doc }) => [part.name, scanPart(part.name, part.role, doc)]));
}

function highestRevisionId(pkg: DocxPackage, scans: ReadonlyMap<string, PartScan>): number {
  let max = 0;
  for (const { part, doc } of pkg.stories()) {
    for (const s of scans.get(part.name)?.sites ?? []) if (s.id && /^\d{1,9}$/.test(s.id)) max = Math.max(max, Number(s.id));
    walk(doc.root, (e) => {
      if (e.name.endsWith('RangeStart') && e.name.startsWith('w:move')) max = Math.max(max, Number(e.attr('w:id')) || 0);
      return true;
    });
  }
  return max;
}

interface StoryPair {
  olderPart: string;
  newerPart: string;
  /** Containers whose blocks are compared: [older's, newer's] (asked for when the story's turn comes). */
  containers: () => [XmlElement, XmlElement][];
}

/**
 * The stories both versions have: the body, headers and footers (by part name, else by their
 * order among the parts of their kind), and the footnotes and endnotes, note by note: the notes
 * whose references the body's comparison matched (`notePairs`, filled by then).
 */
function storyPairs(oldPkg: DocxPackage, newPkg: DocxPackage, notePairs: ReadonlyMap<string, string>, stories: CompareStories): StoryPair[] {
  const out: StoryPair[] = [];
  const oldBody = oldPkg.xml(oldPkg.mainPart).root.first('w:body');
  const newBody = newPkg.xml(newPkg.mainPart).root.first('w:body');
  if (oldBody && newBody) out.push({ olderPart: oldPkg.mainPart, newerPart: newPkg.mainPart, containers: () => [[oldBody, newBody]] });
  for (const role of stories.headersFooters === false ? [] : (['header', 'footer'] as const)) {
    const olds = oldPkg.storyParts.filter((p) => p.role === role);
    const news = newPkg.storyParts.filter((p) => p.role === role);
    news.forEach((n, k) => {
      const o = olds.find((p) => p.name === n.name) ?? olds[k];
      if (o) out.push({ olderPart: o.name, newerPart: n.name, containers: () => [[oldPkg.xml(o.name).root, newPkg.xml(n.name).root]] });
    });
  }
  for (const role of stories.notes === false ? [] : (['footnotes', 'endnotes'] as const)) {
    const o = oldPkg.storyParts.find((p) => p.role === role);
    const n = newPkg.storyParts.find((p) => p.role === role);
    if (!o || !n) continue;
    const noteName = role === 'footnotes' ? 'w:footnote' : 'w:endnote';
    const containers = (): [XmlElement, XmlElement][] => {
      const newNotes = new Map(newPkg.xml(n.name).root.all(noteName).filter(isContentNote).map((x) => [x.attr('w:id'), x]));
      const out: [XmlElement, XmlElement][] = [];
      for (const old of oldPkg.xml(o.name).root.all(noteName).filter(isContentNote)) {
        const note = newNotes.get(notePairs.get(`${noteName}Reference:${old.attr('w:id')}`) ?? null);
        if (note) out.push([old, note]);
      }
      return out;
    };
    out.push({ olderPart: o.name, newerPart: n.name, containers });
  }
  return out;
}

/** Our changes (those whose first revision element the comparison wrote), with where they are in newer. */
function listDifferences(scans: readonly PartScan[], ours: ReadonlySet<XmlElement>, fromOlder: ReadonlySet<XmlElement>): { differences: CompareDifference[]; entries: number } {
  const paragraphIndex = new Map<XmlElement, number>();
  for (const scan of scans) {
    let n = 0;
    // Block level only: paragraphs are not entered (a text box's paragraphs count with theirs).
    const visit = (el: XmlElement, older: boolean): void => {
      const isOlder = older || fromOlder.has(el);
      if (el.name === 'w:p') {
        paragraphIndex.set(el, n);
        if (!isOlder) n++;
        return;
      }
      for (const c of el.children) if (c.kind === 1 && c.name !== 'mc:Fallback' && !c.name.endsWith('Pr')) visit(c, isOlder);
    };
    visit(scan.doc.root, false);
  }
  const out: CompareDifference[] = [];
  const changes = groupChanges(scans);
  const oursById = new Set<string>();
  for (const change of changes) {
    const lead = change.sites[0]!;
    if (!ours.has(lead.el)) continue;
    oursById.add(change.changeId);
    out.push({ kind: change.kind, story: lead.part, paragraph: paragraphOf(lead.el, paragraphIndex), textPreview: previewOf(change.sites) });
  }
  // A group is one author's at one date, so ours never share one with newer's own changes.
  const entries = out.length ? editGroups(changes).filter((g) => oursById.has(g.id)).length : 0;
  return { differences: out, entries };
}

/** The paragraph a change is in (the outermost, for a text box's), or for a row or cell change its first paragraph. */
function paragraphOf(el: XmlElement, index: ReadonlyMap<XmlElement, number>): number {
  let found: number | undefined;
  for (let e: XmlElement | null = el; e; e = e.parent) {
    found = index.get(e) ?? found;
    if (found === undefined && (e.name === 'w:tr' || e.name === 'w:tc')) {
      walk(e, (d) => {
        found ??= index.get(d);
        return found === undefined;
      });
    }
  }
  return found ?? 0;
}
