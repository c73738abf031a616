import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Block, ParagraphBlock } from '../src/contract/reading';
import { buildDemoContract } from '../src/docx/fixture/index';
import { applyDecisions, openDocx } from '../src/docx/index';
import { CORPUS_FILES, openCorpusFile } from './corpus';

/** The demo contract as a file, so it opens like any corpus file (and the test knows its bytes). */
function demoFile(): string {
  const dir = path.resolve('.tmp/e2e-files');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'demo-contract.docx');
  writeFileSync(file, buildDemoContract());
  return file;
}

function paragraphs(blocks: readonly Block[]): ParagraphBlock[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' ? [b] : b.rows.flatMap((r) => r.cells.flatMap((c) => paragraphs(c.blocks)))));
}

const norm = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The body's paragraph texts once every change is accepted, as the engine writes it. */
function acceptAllTexts(file: string): string[] {
  const bytes = new Uint8Array(readFileSync(file));
  const accept = openDocx(bytes).revisions().map((r) => r.change_id);
  const accepted = applyDecisions(bytes, { accept, reject: [] });
  return paragraphs(openDocx(accepted).blocks()).filter((p) => p.story === 'body').map((p) => norm(p.text));
}

/** Switches to "No markup" and answers the draft's visible body paragraphs, in order. */
async function noMarkupTexts(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'No markup' }).click();
  const render = page.getByTestId('document-render');
  // The accept-all view is in once no deletion is drawn.
  await expect.poll(() => render.locator('del').count(), { timeout: 20_000 }).toBe(0);
  await expect(render).toHaveAttribute('data-rendered', 'true');
  return render.evaluate((host) => {
    const texts: string[] = [];
    for (const p of host.querySelectorAll<HTMLElement>('article p')) {
      if (p.closest('header, footer, .rl-footnotes, .rl-endnotes') || !p.checkVisibility()) continue;
      // The text of the draft: a note's reference number is not (the engine reads none either).
      const copy = p.cloneNode(true) as HTMLElement;
      for (const ref of copy.querySelectorAll('.rl-fnref')) ref.remove();
      const text = (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      // A paragraph the page layout broke over two pages is one paragraph.
      if (p.classList.contains('rl-continued') && texts.length > 0) texts[texts.length - 1] = `${texts[texts.length - 1]} ${text}`.trim();
      else texts.push(text);
    }
    return texts;
  });
}

/** A visible numbered paragraph with no text: what accepting everything never leaves behind. */
async function emptyNumberedItems(page: Page): Promise<number> {
  return page.getByTestId('document-render').evaluate((host) =>
    [...host.querySelectorAll<HTMLElement>('article p')].filter((p) => {
      if (!p.checkVisibility() || (p.textContent ?? '').trim() !== '') return false;
      const label = getComputedStyle(p, '::before').content;
      return label !== 'none' && label !== 'normal' && label !== '""';
    }).length,
  );
}

test.describe('"No markup" shows what accepting everything gives', () => {
  for (const name of ['demo', 'TestFiles__RP__RP005-Deleted-Paragraph-Mark.docx', 'TestFiles__RP__RP007-Multiple-Deleted-Para-Mark.docx', 'TestFiles__RP__RP009-Deleted-Table-Row.docx', 'TestFiles__RP__RP011-Multiple-Deleted-Rows.docx', 'TestFiles__FA__RevTracking__013-DeletedParagraph.docx', 'TestFiles__RP__RP047-Inserted-and-Deleted-Paragraph-Mark.docx']) {
    test(`${name}: the visible paragraphs are the accepted document's, no empty numbered item`, async ({ page }) => {
      const file = name === 'demo' ? demoFile() : path.join(CORPUS_FILES, name);
      test.skip(!existsSync(file), `the shared corpus is not at ${CORPUS_FILES}`);
      await openCorpusFile(page, file);
      const expected = acceptAllTexts(file);
      expect(await noMarkupTexts(page)).toEqual(expected);
      expect(await emptyNumberedItems(page)).toBe(0);
      // "All markup" is the draft as it is: the deleted paragraphs and rows show again.
      await page.getByRole('button', { name: 'All markup' }).click();
      await expect.poll(() => page.getByTestId('document-render').locator('del').count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await expect(page.getByTestId('document-render').locator('.rl-gone')).toHaveCount(0);
    });
  }
});

/** What the draft highlights as current: its tag, whether it shows, and the current change's id. */
async function highlighted(page: Page): Promise<{ id: string | null; tag: string | null; shows: boolean; text: string }> {
  return page.evaluate(() => {
    const id = document.querySelector<HTMLElement>('[role=option][aria-current=true]')?.dataset.changeId ?? null;
    const here = document.querySelector<HTMLElement>('[data-testid=document-render] .rl-here');
    const box = here?.getBoundingClientRect();
    return { id, tag: here?.tagName ?? null, shows: !!here && here.checkVisibility() && box!.width > 4 && box!.height > 4, text: (here?.textContent ?? '').trim() };
  });
}

const HOLDER_TAG: Record<string, readonly string[]> = { paragraph_mark: ['P', 'TD', 'TH'], 'tr-prop-change': ['TR'], 'tc-prop-change': ['TD', 'TH'], 'tbl-prop-change': ['TABLE'] };

test.describe('every jump lands on something', () => {
  for (const name of ['demo', 'TestFiles__RP__RP041-Cell-With-Empty-Paras-at-End.docx', 'TestFiles__RP__RP029-Table-Row-Props-Change.docx', 'TestFiles__FA__RevTracking__023-CellPropertiesChange.docx']) {
    test(`${name}: a paragraph mark highlights its paragraph (its cell when empty), a row, cell or table change its row, cell or table, in both views`, async ({ page }) => {
      test.setTimeout(120_000);
      const file = name === 'demo' ? demoFile() : path.join(CORPUS_FILES, name);
      test.skip(!existsSync(file), `the shared corpus is not at ${CORPUS_FILES}`);
      await openCorpusFile(page, file);
      const session = JSON.parse((await page.evaluate(() => sessionStorage.getItem('redline.session'))) ?? '{}') as { token: string; orgId: string };
      const draftId = new URL(page.url()).pathname.split('/').pop()!;
      const review = (await (await page.request.get(`/api/documents/${draftId}/review`, { headers: { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId } })).json()) as { revisions: { change_id: string; kind: string }[] };
      const kindOf = new Map(review.revisions.map((r) => [r.change_id, r.kind]));
      const entries = await page.locator('[role=option][data-change-id]').count();
      let structural = 0;
      for (const view of ['All markup', 'No markup'] as const) {
        await page.getByRole('button', { name: view }).click();
        if (view === 'No markup') await expect.poll(() => page.getByTestId('document-render').locator('del').count(), { timeout: 20_000 }).toBe(0);
        await page.locator('[role=option][data-change-id]').first().focus();
        for (let n = 0; n < entries; n++) {
          if (n > 0) await page.keyboard.press('j');
          const id = await page.locator('[role=option][aria-current=true]').getAttribute('data-change-id');
          // A change in the styles or numbering part has no place in the text.
          if ((await page.locator(`[id="_rl_${id!.replace(/[^A-Za-z0-9_]/g, '_')}"]`).count()) === 0) continue;
          await expect.poll(async () => (await highlighted(page)).id).toBe(id);
          const here = await highlighted(page);
          expect(here.shows, `${view}: ${id} (${kindOf.get(id!)}) highlights something visible`).toBe(true);
          // An entry of several changes (a row with its cells' text) is listed under its first.
          const kind = kindOf.get(id!) ?? '';
          // In "No markup" a deleted row is gone (as accepting gives): its table stands for it.
          const holders = view === 'No markup' && kind === 'tr-prop-change' ? [...HOLDER_TAG[kind]!, 'TABLE'] : HOLDER_TAG[kind];
          // An entry of several changes frames each member's own marks (a paragraph mark's ¶, its
          // deleted or inserted text: entry-view.spec.ts); the holder is a lone change's.
          const members = ((await page.locator('[role=option][aria-current=true]').getAttribute('data-members')) ?? '').split(' ').filter(Boolean);
          if (holders) structural++;
          if (holders && members.length <= 1) {
            expect(holders, `${view}: ${id} (${kindOf.get(id!)}) highlights ${here.tag}`).toContain(here.tag);
            // A paragraph mark's paragraph is highlighted for its text; an empty one gives way to its cell.
            if (here.tag === 'P') expect(here.text.replace(/[¶✎⊕⊖⊞]/g, '').trim()).not.toBe('');
          }
        }
      }
      expect(structural).toBeGreaterThan(0);
    });
  }
});
