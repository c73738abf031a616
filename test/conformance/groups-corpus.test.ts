/**
 * Edit groups (the `group` field of revisions, src/docx/revisions/groups.ts) on the shared corpus
 * (../shared/corpus; skipped with a message when absent), on two kinds of real drafts: the
 * tracked-change files as they are, and the comparison of each file's reject-all with its
 * accept-all (one author and date for every change, as a comparison draft has).
 * - every group's members are consecutive in document order (ordinals) and share author and date;
 *   the group is named by its first member, and every member carries the same summary;
 * - entries that are bare paragraph marks (a group of paragraph-mark changes only) are at most
 *   15% of all entries, over the files and over the comparisons; printed before (one entry per
 *   change) and after.
 */
import { describe, expect, it } from 'vitest';
import type { Revision } from '../../src/contract/revision';
import { compareDocx, ingestDocx, listRevisions } from '../../src/docx/index';
import { decideAll } from '../support/compare-contract';
import { corpusFileNames, lacksShared, readCorpusFile } from '../support/shared-corpus';

const HAS_FILES = !lacksShared('edit groups on the shared corpus', 'files');
const names = corpusFileNames();

interface Share {
  changes: number;
  bareChanges: number;
  entries: number;
  bareEntries: number;
}

/** Checks the group invariants of one draft's revisions and counts its entries. */
function checkGroups(revisions: readonly Revision[], share: Share): void {
  const byGroup = new Map<string, Revision[]>();
  for (const r of revisions) {
    expect(r.group, r.change_id).toBeDefined();
    const list = byGroup.get(r.group!) ?? [];
    list.push(r);
    byGroup.set(r.group!, list);
  }
  for (const [id, members] of byGroup) {
    const lead = members[0]!;
    expect(lead.change_id).toBe(id);
    members.forEach((m, i) => {
      expect(m.ordinal, `${id}: members adjacent in document order`).toBe(lead.ordinal + i);
      expect(m.author ?? null, `${id}: one author`).toBe(lead.author ?? null);
      expect(m.date ?? null, `${id}: one date`).toBe(lead.date ?? null);
      expect(m.group_summary).toBe(lead.group_summary);
    });
    if (members.every((m) => m.kind === 'paragraph_mark')) share.bareEntries++;
  }
  share.changes += revisions.length;
  share.bareChanges += revisions.filter((r) => r.kind === 'paragraph_mark').length;
  share.entries += byGroup.size;
}

const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : 0);

function report(label: string, s: Share): void {
  console.log(
    `${label}: bare paragraph-mark entries ${s.bareChanges}/${s.changes} (${percent(s.bareChanges, s.changes).toFixed(1)}%) one entry per change, ` +
      `${s.bareEntries}/${s.entries} (${percent(s.bareEntries, s.entries).toFixed(1)}%) grouped`,
  );
}

describe.skipIf(!HAS_FILES)('edit groups on the shared corpus', () => {
  it('groups tracked-change files: members adjacent, one author and date; bare marks at most 15% of entries', () => {
    const share: Share = { changes: 0, bareChanges: 0, entries: 0, bareEntries: 0 };
    for (const name of names) checkGroups(listRevisions(ingestDocx(readCorpusFile(name)).bytes), share);
    report(`corpus files (${names.length})`, share);
    expect(share.bareChanges / share.changes).toBeGreaterThan(0.15); // the figure the grouping has to bring down
    expect(share.bareEntries / share.entries).toBeLessThanOrEqual(0.15);
  });

  it('groups comparison drafts (reject-all against accept-all of each file) the same way', () => {
    const share: Share = { changes: 0, bareChanges: 0, entries: 0, bareEntries: 0 };
    for (const name of names) {
      const d = ingestDocx(readCorpusFile(name)).bytes;
      const result = compareDocx(decideAll(d, 'reject'), decideAll(d, 'accept'), { date: '2025-05-01T00:00:00Z' });
      checkGroups(listRevisions(result.bytes), share);
    }
    report(`comparisons (${names.length})`, share);
    expect(share.bareEntries / share.entries).toBeLessThanOrEqual(0.15);
  }, 240_000);
});
