import { expect, test, type Page } from '@playwright/test';
import { DEMO_CONTRACT, signInThroughUi } from './helpers';

/**
 * Page numbers in footers written as simple fields (`w:fldSimple w:instr="PAGE"`, as the demo and
 * many generated files write them) are computed per page like complex ones: docx-preview drops a
 * simple field with its text, so the render variant writes it as a complex field.
 */
for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`the demo's footers say "Page n of N" on every page at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInThroughUi(page);
    await page.getByRole('link', { name: DEMO_CONTRACT, exact: true }).click();
    await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 30_000 });
    const pages = page.locator('[data-testid=document-render] [data-page-number]');
    const count = await pages.count();
    expect(count).toBeGreaterThan(1);
    for (let n = 1; n <= count; n++) {
      await expect(page.locator(`[data-page-number="${n}"] > footer`)).toHaveText(new RegExp(`Page\\s*${n}\\s*of\\s*${count}\\s*$`));
    }
  });
}

/** The clause labels of the body's numbered paragraphs, in order, as the engine reads them (GET text, every page). */
async function engineLabels(page: Page, uploadId: string): Promise<string[]> {
  const raw = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; orgId: string };
  const headers = { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
  type Block = { type?: string; story?: string; numbering?: string; rows?: { cells: { blocks: Block[] }[] }[] };
  const labels: string[] = [];
  const visit = (b: Block) => {
    if (b.numbering) labels.push(b.numbering);
    for (const row of b.rows ?? []) for (const cell of row.cells) cell.blocks.forEach(visit);
  };
  let cursor: string | null = null;
  do {
    const res = await page.request.get(`/api/uploads/${uploadId}/text?view=markup${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { blocks: Block[]; nextCursor: string | null };
    body.blocks.filter((b) => (b.story ?? 'body') === 'body').forEach(visit);
    cursor = body.nextCursor;
  } while (cursor);
  return labels;
}

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`the demo's list items are numbered in the laid-out pages as the engine numbers them, at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInThroughUi(page);
    await page.getByRole('link', { name: DEMO_CONTRACT, exact: true }).click();
    await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 30_000 });
    const shown = await page.locator('[data-testid=document-render] [data-page-number] article p[data-rl-number]:not(.rl-continued)')
      .evaluateAll((ps) => ps.map((p) => (p as HTMLElement).dataset.rlNumber!.trim()));
    const expected = await engineLabels(page, page.url().split('/').pop()!);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBe(expected.length);
    // The engine's label is the clause as cited ("6(a)"); the page shows the item's own ("(a)").
    const disagreeing = shown.map((label, i) => [label, expected[i]!] as const).filter(([label, clause]) => !clause.endsWith(label));
    expect(disagreeing).toEqual([]);
    // What the page draws is that label (not docx-preview's counter, which the page groups' containment breaks).
    const drawn = await page.locator('[data-testid=document-render] [data-page-number] article p[data-rl-number]:not(.rl-continued)')
      .evaluateAll((ps) => ps.map((p) => getComputedStyle(p, '::before').content));
    expect(drawn.filter((content) => content.includes('counter('))).toEqual([]);
    // Numbered in sequence, not every item "1." (CSS counters inside the page groups' containment).
    expect(new Set(shown).size).toBeGreaterThan(shown.length / 2);
  });
}
