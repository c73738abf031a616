import type { DocxPackage } from '../package/package';
import { applyToScans } from '../revisions/apply';
import { groupChanges, type Change } from '../revisions/changes';
import { editGroups } from '../revisions/groups';
import { assignUniqueIds } from '../revisions/ids';
import { visibleText } from '../revisions/preview';
import { MOVE_TYPES, scanPart, type PartScan } from '../revisions/sites';
import type { XmlElement } from '../xml/tree';
import { MAY_HOLD_REVISIONS } from './decided';

/**
 * What a comparison did with the pending tracked changes each version held (issue 34): a lawyer
 * must never find the other side's undecided clause shown as agreed text.
 *
 * - `kept`: newer's own changes stay tracked under their own authors and dates; older's changes
 *   newer still holds pending are those same changes, so they are no difference; older's changes
 *   newer no longer holds pending (accepted, rejected, or edited away without tracking) are each a
 *   difference the comparison marks.
 * - `accepted` / `rejected`: both versions were read as if every change were accepted (as Word
 *   compares) or rejected; none is kept, and the counts say what that view hid.
 */
export interface PendingSummary {
  treatment: 'kept' | 'accepted' | 'rejected';
  /** Pending changes older held, in entries as a review lists them (a replaced word is one). */
  older: number;
  /** Pending changes newer held. */
  newer: number;
  /** Of newer's, how many the redline keeps tracked under their own authors (all with `kept`, else 0). */
  kept: number;
  /** Of older's, how many newer still holds pending (the same author, and changes of the same kinds and text); 0 unless `kept`. */
  olderStillPending: number;
  /** Of older's, how many newer no longer holds pending: each shown as a difference; 0 unless `kept`. */
  olderResolved: number;
}

/** The entries (what a review lists as one edit) of changes whose ids are unique, each with its changes. */
export function entriesOf(changes: readonly Change[]): Change[][] {
  const byId = new Map(changes.map((c) => [c.changeId, c]));
  return editGroups(changes).map((g) => g.members.map((id) => byId.get(id)!));
}

/** A pending entry as the comparison matches it across versions: author, and each change's kind and text. */
function keyOf(entry: readonly Change[]): string {
  const author = entry[0]!.sites[0]!.el.attr('w:author') ?? '';
  return [author, ...entry.map((c) => `${c.kind}:${changeText(c)}`)].join('\u0000');
}

function changeText(change: Change): string {
  return change.sites.map((s) => visibleText(s.el)).join(' ').replace(/\s+/g, ' ').trim();
}

/** Every story's scan, for the stories whose text may hold revisions (the others hold none). */
export function scanRevisionStories(pkg: DocxPackage): PartScan[] {
  return pkg
    .stories()
    .filter(({ doc }) => MAY_HOLD_REVISIONS.test(doc.src))
    .map(({ part, doc }) => scanPart(part.name, part.role, doc));
}

/**
 * Newer's pending changes as older's are matched against them: by entry (what a review lists as
 * one edit) and, for an entry grouped otherwise in newer (its neighbours differ), change by
 * change. Multisets: the same words twice count twice. Ids are made unique first (as ingest
 * makes them), so entries can name their changes.
 */
export interface PendingKeys {
  entries: Map<string, number>;
  changes: Map<string, number>;
}

export function pendingKeys(scans: readonly PartScan[]): PendingKeys {
  const keys: PendingKeys = { entries: new Map(), changes: new Map() };
  if (!scans.some((s) => s.sites.length)) return keys;
  assignUniqueIds(scans);
  for (const entry of entriesOf(groupChanges(scans))) {
    add(keys.entries, keyOf(entry));
    for (const change of entry) add(keys.changes, keyOf([change]));
  }
  return keys;
}

/** How many pending entries the keys hold. */
export function entryCount(keys: PendingKeys): number {
  let n = 0;
  for (const count of keys.entries.values()) n += count;
  return n;
}

function add(keys: Map<string, number>, key: string): void {
  keys.set(key, (keys.get(key) ?? 0) + 1);
}

/** Takes one `key` from a multiset; whether it held one. */
function take(keys: Map<string, number>, key: string): boolean {
  const held = keys.get(key) ?? 0;
  if (held > 0) keys.set(key, held - 1);
  return held > 0;
}

/**
 * Decides older's pending changes so that every one newer no longer holds pending reads
 * differently from newer's rejected view, and every one newer still holds reads the same:
 *
 * - still pending in newer (same kind, author and text): rejected, as newer's rejected view reads it;
 * - an insertion newer no longer holds, whose text newer's rejected view still has (accepted
 *   without tracking): rejected, so the comparison marks the text inserted;
 * - an insertion whose text newer has not (dropped): accepted, so the comparison marks it deleted;
 * - a deletion whose text newer's rejected view still has (the deletion dropped): accepted, so the
 *   comparison marks the text inserted again; one whose text newer has not: rejected, so the
 *   comparison marks it deleted;
 * - any other change newer no longer holds (formatting, structure): rejected.
 *
 * "Has the text" is a containment test on the story's text: a change of a few common words may be
 * found elsewhere and then read as accepted without tracking (the safe side: it is the rejected view).
 */
export function decideOlderAgainst(oldPkg: DocxPackage, newerPending: PendingKeys, newerText: () => string): { older: number; stillPending: number } {
  const scans = scanRevisionStories(oldPkg);
  if (!scans.some((s) => s.sites.length)) return { older: 0, stillPending: 0 };
  assignUniqueIds(scans);
  const changes = groupChanges(scans);
  const entries = entriesOf(changes);
  const entriesLeft = new Map(newerPending.entries);
  const changesLeft = new Map(newerPending.changes);
  const accept: string[] = [];
  const reject: string[] = [];
  let stillPending = 0;
  let text: string | null = null;
  for (const entry of entries) {
    if (take(entriesLeft, keyOf(entry))) {
      stillPending++;
      for (const change of entry) {
        take(changesLeft, keyOf([change]));
        reject.push(change.changeId);
      }
      continue;
    }
    let allHeld = true;
    for (const change of entry) {
      if (take(changesLeft, keyOf([change]))) {
        reject.push(change.changeId);
        continue;
      }
      allHeld = false;
      // A move's halves are both in older's text; it is read rejected (its source), as other structure is.
      const moved = change.sites.some((s) => MOVE_TYPES.has(s.type));
      const words = !moved && (change.kind === 'insert' || change.kind === 'delete') ? changeText(change) : '';
      if (!words) {
        reject.push(change.changeId);
        continue;
      }
      text ??= newerText();
      const present = text.includes(words);
      const acceptIt = change.kind === 'insert' ? !present : present;
      (acceptIt ? accept : reject).push(change.changeId);
    }
    if (allHeld) stillPending++;
  }
  applyToScans(scans, changes, { accept, reject });
  return { older: entries.length, stillPending };
}

/** The visible text of a set of story roots, normalised as `changeText` normalises a change's. */
export function storiesText(roots: readonly XmlElement[]): string {
  return roots.map((root) => visibleText(root).replace(/\s+/g, ' ')).join('\n');
}
