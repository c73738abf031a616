import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { CORPUS_FILES, openCorpusFile } from './corpus';
import { openLabProtocol } from './lab-protocol';

/**
 * Issue 32, what an entry covers and what a decision shows, at both widths, on a draft with the
 * lab protocol's shapes (lab-protocol.ts): the current entry's highlight frames every member's
 * marks, and a decided entry shows as Word shows the draft after the decision.
 */
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/**
 * For the current entry: each member's marks (what follows its bookmark up to the next bookmark
 * or plain text, and the row of a row inserted or deleted) that show on the page and are not
 * inside one of the highlight's boxes. Empty when the highlight frames all of it.
 */
async function marksOutsideHighlight(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const option = document.querySelector<HTMLElement>('[role=option][aria-current=true]');
    const members = (option?.dataset.members ?? '').split(' ').filter(Boolean);
    const boxes = [...document.querySelectorAll<HTMLElement>('[data-testid=document-render] .rl-here')].map((el) => el.getBoundingClientRect());
    const inside = (b: DOMRect) => boxes.some((h) => b.left >= h.left - 2 && b.right <= h.right + 2 && b.top >= h.top - 2 && b.bottom <= h.bottom + 2);
    const outside: string[] = [];
    for (const id of members) {
      const anchor = document.getElementById(`_rl_${id.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 40));
      if (!anchor) continue;
      const shown: Element[] = [];
      for (let el = anchor.nextElementSibling; el && (el.tagName === 'INS' || el.tagName === 'DEL' || (el.tagName === 'SPAN' && el.textContent === '' && !el.id.startsWith('_rl_'))); el = el.nextElementSibling) {
        if (el.tagName !== 'SPAN') shown.push(el);
      }
      // A row inserted or deleted: its marker ("⊕", "⊖") follows the bookmark; the row is the change.
      const row = anchor.closest('tr');
      if (row && /^[⊕⊖]$/.test((anchor.nextElementSibling?.textContent ?? '').trim())) shown.push(row);
      for (const el of shown) {
        const b = el.getBoundingClientRect();
        if (b.width > 0 && b.height > 0 && !inside(b)) outside.push(`${id}: ${el.tagName} "${(el.textContent ?? '').slice(0, 30)}"`);
      }
    }
    return outside;
  });
}

/** Makes the entry current from the list, opening the phone's list panel first (and closing it after). */
/** An entry's text, case kept (a string would match any case: 'Move' found "Removed 3 empty paragraphs"). */
const word = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

async function pick(page: Page, text: string): Promise<void> {
  const open = page.getByRole('button', { name: /^All changes/ });
  if (await open.isVisible()) await open.click();
  await page.getByRole('listbox', { name: 'Changes' }).getByRole('option').filter({ hasText: word(text) }).click();
  const hide = page.getByRole('button', { name: 'Hide changes' });
  if (await hide.isVisible()) await hide.click();
}

/** The entry whose option holds `text`, by its attributes (the phone's list panel may be closed). */
const entry = (page: Page, text: string) => page.locator('[role=option]', { hasText: word(text) });

for (const size of WIDTHS) {
  test(`${size.width} px: the current entry's highlight frames every change of it, rows and both halves of a replacement`, async ({ page }) => {
    await page.setViewportSize(size);
    await openLabProtocol(page);
    const options = page.locator('[role=option]');
    const count = await options.count();
    expect(count).toBeGreaterThan(5);
    const seen = new Set<string>();
    for (let i = 0; i < count; i++) {
      const current = page.locator('[role=option][aria-current=true]');
      const label = (await current.locator('span.font-semibold').first().textContent()) ?? '';
      seen.add(label);
      await expect.poll(() => marksOutsideHighlight(page), { message: label }).toEqual([]);
      // Where the entry starts is in the document's view.
      await expect(page.locator('[data-testid=document-render] .rl-here').first()).toBeInViewport();
      await page.getByRole('button', { name: 'Next', exact: true }).click();
    }
    // The entries the issue names were among those walked.
    expect([...seen].some((l) => /^Changes \d+–\d+$/.test(l))).toBe(true);
    await expect(options.filter({ hasText: 'Row inserted' })).toHaveCount(1);
    await expect(options.filter({ hasText: 'Replacement' })).toHaveCount(1);
  });

  test(`${size.width} px: a decided entry shows as Word shows the draft after the decision, before the draft is rendered again`, async ({ page }) => {
    await page.setViewportSize(size);
    await openLabProtocol(page);
    // The draft is not rendered again from the service's bytes: what shows is the view's own.
    await page.route('**/api/documents/*/render', () => {});
    const doc = page.getByTestId('document-render');
    const visibleText = () => doc.evaluate((el) => (el as HTMLElement).innerText);

    // Accepting the deleted rows takes the rows (and their emptied table) away, with no glyph left behind.
    const deletedRows = entry(page, 'Row deleted');
    await pick(page, 'Row deleted');
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(deletedRows).toHaveAttribute('data-state', 'in');
    await expect.poll(visibleText).not.toContain('Tailing factor');
    expect(await visibleText()).not.toMatch(/[✓✗⊖]/);
    expect(await doc.locator('tr:visible', { hasText: 'Plate count' }).count()).toBe(0);

    // Rejecting the inserted rows takes them away; the table they made goes with them.
    const insertedRows = entry(page, 'Row inserted');
    await pick(page, 'Row inserted');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(insertedRows).toHaveAttribute('data-state', 'back');
    await expect.poll(visibleText).not.toContain('System suitability');
    expect(await doc.locator('table:visible').count()).toBe(0);
    expect(await visibleText()).not.toMatch(/[✓✗⊕⊖]/);

    // Rejecting the move leaves the heading where it was, once, and plain.
    const move = entry(page, 'Move');
    await pick(page, 'Move');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(move).toHaveAttribute('data-state', 'back');
    await expect.poll(async () => (await visibleText()).match(/Acceptance criteria/g)?.length ?? 0).toBe(1);
    const marked = await doc.locator('del:visible, ins:visible').filter({ hasText: 'Acceptance criteria' }).evaluateAll((els) => els.map((el) => `${getComputedStyle(el).textDecorationLine} ${getComputedStyle(el, '::before').content}`));
    // No strike-through, and no "Moved" label left on it.
    expect(marked.every((style) => style === 'none none')).toBe(true);

    // Accepting the replacement keeps its new words and drops the old, as plain text.
    await pick(page, 'Replacement');
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect.poll(visibleText).toContain('The column is an L1 column, 250 mm long.');

    // Accepting the deleted empty paragraphs' marks ("Removed 3 empty paragraphs") leaves no pilcrow.
    const marks = entry(page, 'Removed 3 empty paragraphs');
    await pick(page, 'Removed 3 empty paragraphs');
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(marks).toHaveAttribute('data-state', 'in');
    await expect.poll(async () => (await visibleText()).match(/¶/g)?.length ?? 0).toBe(3);
  });
}

test.describe('real files: the highlight frames every change of each entry', () => {
  for (const name of ['TestFiles__RP__RP011-Multiple-Deleted-Rows.docx', 'TestFiles__RP__RP047-Inserted-and-Deleted-Paragraph-Mark.docx', 'TestFiles__RP__RP049-Deleted-Para-Before-Table.docx', 'TestFiles__FA__RevTracking__007-InsertedTableRow.docx']) {
    test(name, async ({ page }) => {
      test.skip(!existsSync(path.join(CORPUS_FILES, name)), `the shared corpus is not at ${CORPUS_FILES}`);
      await page.setViewportSize({ width: 1440, height: 900 });
      await openCorpusFile(page, name);
      const count = await page.locator('[role=option]').count();
      for (let i = 0; i < count; i++) {
        const label = (await page.locator('[role=option][aria-current=true] [data-testid=entry-title]').textContent()) ?? '';
        await expect.poll(() => marksOutsideHighlight(page), { message: label }).toEqual([]);
        await page.getByRole('button', { name: 'Next', exact: true }).click();
      }
    });
  }
});
