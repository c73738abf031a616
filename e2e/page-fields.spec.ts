import { expect, test } from '@playwright/test';
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
