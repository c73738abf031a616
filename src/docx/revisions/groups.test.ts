import { describe, expect, it } from 'vitest';
import { compareDocx, listRevisions } from '../index';
import { del, dr, ins, minimalDocx, r } from '../../../test/support/docx-files';

const AT = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
const markIns = (id: number, author = 'Ann') => `<w:pPr><w:rPr><w:ins w:id="${id}" w:author="${author}" w:date="2025-01-01T00:00:00Z"/></w:rPr></w:pPr>`;
const markDel = (id: number) => `<w:pPr><w:rPr><w:del w:id="${id}" ${AT}/></w:rPr></w:pPr>`;

/** The groups of a body, as lists of change ids, and the summary of each. */
function groupsOf(body: string): { members: string[]; summary: string }[] {
  const out: { members: string[]; summary: string }[] = [];
  for (const rev of listRevisions(minimalDocx(body))) {
    const last = out[out.length - 1];
    if (last && rev.group === last.members[0]) last.members.push(rev.change_id);
    else {
      expect(rev.group).toBe(rev.change_id); // a group is named by its first member
      out.push({ members: [rev.change_id], summary: rev.group_summary! });
    }
    expect(rev.group_summary).toBe(out[out.length - 1]!.summary);
  }
  return out;
}

describe('edit groups', () => {
  it('a deletion beside an insertion by the same author at the same time is one "Replaced" entry', () => {
    const groups = groupsOf(`<w:p>${r('Signed on ')}${del(1, dr('July 4, 2014'))}${ins(2, r('July 21, 2015'))}${r('.')}</w:p>`);
    expect(groups).toEqual([{ members: ['c1', 'c2'], summary: "Replaced 'July 4, 2014' with 'July 21, 2015'" }]);
  });

  it('another author, another time, or untracked text between keeps them apart', () => {
    expect(groupsOf(`<w:p>${del(1, dr('sixty'))}${ins(2, r('thirty'), 'Bob')}</w:p>`).map((g) => g.members)).toEqual([['c1'], ['c2']]);
    const later = `<w:ins w:id="2" w:author="Ann" w:date="2025-01-02T00:00:00Z">${r('thirty')}</w:ins>`;
    expect(groupsOf(`<w:p>${del(1, dr('sixty'))}${later}</w:p>`).map((g) => g.members)).toEqual([['c1'], ['c2']]);
    expect(groupsOf(`<w:p>${del(1, dr('sixty'))}${r(' days ')}${ins(2, r('thirty'))}</w:p>`).map((g) => g.members)).toEqual([['c1'], ['c2']]);
  });

  it("an inserted paragraph's text and its mark are one entry; an untracked paragraph between separates", () => {
    const groups = groupsOf(`<w:p>${markIns(2)}${ins(1, r('New clause.'))}</w:p><w:p>${r('Old clause.')}</w:p>`);
    expect(groups).toEqual([{ members: ['c1', 'c2'], summary: "Inserted 'New clause.'" }]);
    const apart = groupsOf(`<w:p>${ins(1, r('One.'))}</w:p><w:p>${r('Between.')}</w:p><w:p>${ins(2, r('Two.'))}</w:p>`);
    expect(apart.map((g) => g.members)).toEqual([['c1'], ['c2']]);
  });

  it('a bare paragraph mark joins the change of the same author and time beside it, not one of another author', () => {
    const joined = groupsOf(`<w:p>${markDel(2)}${r('Keep')}${del(1, dr(' this'))}</w:p><w:p>${r('next')}</w:p>`);
    expect(joined.map((g) => g.members)).toEqual([['c1', 'c2']]);
    expect(joined[0]!.summary).toBe("Deleted 'this'");
    const alone = groupsOf(`<w:p>${markIns(2, 'Bob')}${r('Keep')}${del(1, dr(' this'))}</w:p><w:p>${r('next')}</w:p>`);
    expect(alone.map((g) => g.members)).toEqual([['c1'], ['c2']]);
  });

  it('a deleted table row is one entry with its paragraphs\' text and marks', () => {
    const row = (cells: string[]) => `<w:tr><w:trPr><w:del w:id="1" ${AT}/></w:trPr>${cells.join('')}</w:tr>`;
    const cell = (id: number, text: string) => `<w:tc><w:p>${markDel(id + 1)}${del(id, dr(text))}</w:p></w:tc>`;
    const kept = `<w:tr><w:tc><w:p>${r('Kept')}</w:p></w:tc><w:tc><w:p>${r('row')}</w:p></w:tc></w:tr>`;
    const body = `<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>${kept}${row([cell(10, 'Fee'), cell(20, '100')])}${kept}</w:tbl><w:p/>`;
    const groups = groupsOf(body);
    expect(groups).toEqual([{ members: ['c1', 'c10', 'c11', 'c20', 'c21'], summary: "Deleted row: 'Fee 100'" }]);
  });

  it('formatting joins only content inserted by the same edit; moves stay alone', () => {
    const rPrChange = `<w:rPrChange w:id="3" ${AT}><w:rPr/></w:rPrChange>`;
    const inside = groupsOf(`<w:p>${markIns(2)}${ins(1, r('Bold words', `<w:b/>${rPrChange}`))}</w:p><w:p>${r('x')}</w:p>`);
    expect(inside.map((g) => g.members)).toEqual([['c1', 'c3', 'c2']]);
    const outside = groupsOf(`<w:p>${ins(1, r('new'))}${r('Bold words', `<w:b/>${rPrChange}`)}</w:p>`);
    expect(outside.map((g) => g.members)).toEqual([['c1'], ['c3']]);
    const move =
      `<w:p><w:moveFromRangeStart w:id="5" w:name="m1" ${AT}/><w:moveFrom w:id="6" ${AT}>${r('moved')}</w:moveFrom><w:moveFromRangeEnd w:id="5"/>` +
      `${ins(7, r('added'))}</w:p><w:p><w:moveToRangeStart w:id="8" w:name="m1" ${AT}/><w:moveTo w:id="9" ${AT}>${r('moved')}</w:moveTo><w:moveToRangeEnd w:id="8"/></w:p>`;
    expect(groupsOf(move).map((g) => g.members)).toEqual([['c6'], ['c7']]);
  });

  it('a compared row or paragraph deleted or inserted whole is one group (issue 26.3)', () => {
    const row = (a: string, b: string) => `<w:tr><w:tc><w:p>${r(a)}</w:p></w:tc><w:tc><w:p>${r(b)}</w:p></w:tc></w:tr>`;
    const table = (rows: string[]) => `<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>${rows.join('')}</w:tbl><w:p/>`;
    const older = minimalDocx(`<w:p>${r('Fees.')}</w:p><w:p>${r('This paragraph goes.')}</w:p>${table([row('Fee', '100'), row('Tax', '20'), row('Total', '120')])}`);
    const newer = minimalDocx(`<w:p>${r('Fees.')}</w:p>${table([row('Fee', '100'), row('Total', '120')])}`);
    const revisions = listRevisions(compareDocx(older, newer, { date: '2025-05-01T00:00:00Z' }).bytes);
    const groups = new Map<string, string[]>();
    for (const rev of revisions) groups.set(rev.group!, [...(groups.get(rev.group!) ?? []), rev.kind]);
    expect([...groups.values()].map((kinds) => kinds.length > 1)).toEqual([...groups.keys()].map(() => true));
    expect(revisions.map((x) => x.group_summary)).toEqual(expect.arrayContaining(["Deleted 'This paragraph goes.'", "Deleted row: 'Tax 20'"]));
  });
});
