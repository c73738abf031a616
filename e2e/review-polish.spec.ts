import { expect, test } from '@playwright/test';
import { buildDocx, buildKindSample, by, listItem, p } from '../src/docx/fixture/index';
import { withStyleChange } from '../test/support/document-wide-docx';
import { signInThroughApi, signInThroughUi } from './helpers';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A working draft whose styles carry a tracked change, plus its changes in the text. */
async function draftWithStyleChange(request: Parameters<typeof signInThroughApi>[0]): Promise<string> {
  const api = await signInThroughApi(request);
  const name = `Style change ${Date.now()}.docx`;
  const upload = await request.post('/api/uploads', {
    headers: api.headers,
    multipart: { purpose: 'source_doc', file: { name, mimeType: DOCX_MIME, buffer: Buffer.from(withStyleChange(buildKindSample('insert'))) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await request.post(`/api/uploads/${((await upload.json()) as { id: string }).id}/working-draft`, { headers: api.headers });
  return ((await draft.json()) as { id: string }).id;
}

test('changes in the styles are a "Document-wide changes" group at the top of the list, decidable like the others', async ({ page, request }) => {
  const draftId = await draftWithStyleChange(request);
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
  const list = page.getByRole('listbox', { name: 'Changes' });
  const wide = list.getByRole('group', { name: /^Document-wide changes/ });
  await expect(wide.getByRole('option')).toHaveCount(1);
  await expect(wide.getByRole('option')).toContainText('Styles Author');
  // It comes first in the list, before the changes in the text.
  const first = await list.getByRole('option').first().getAttribute('data-change-id');
  expect(first).toBe(await wide.getByRole('option').getAttribute('data-change-id'));
  await expect(list.getByRole('group', { name: 'In the text' }).getByRole('option')).not.toHaveCount(0);
  // Choosing it leaves the document where it is (no jump target) and it can be accepted.
  await wide.getByRole('option').click();
  await expect(page.getByRole('heading', { level: 2 })).toContainText('Change');
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(wide.getByRole('option')).toHaveAttribute('data-state', 'in');
  await expect(page.getByText('All decisions saved')).toBeVisible();
});

test('the review page: no empty band above the list, and nothing about a justification when a change has none (issue 32 item 6)', async ({ page, request }) => {
  const draftId = await draftWithStyleChange(request);
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[role=option][aria-current=true]')).toBeVisible();
  const filters = await page.getByRole('region', { name: 'Filters and batches' }).boundingBox();
  const list = await page.getByRole('listbox', { name: 'Changes' }).boundingBox();
  expect(list!.y - (filters!.y + filters!.height)).toBeLessThanOrEqual(1);
  await expect(page.getByTestId('justification')).toHaveCount(0);
  await expect(page.getByText('Justification', { exact: true })).toHaveCount(0);
});

test('a paragraph-mark change on an empty list item shows its pilcrow on the item\'s own line, as Word, without a number standing for nothing', async ({ page, request }) => {
  const api = await signInThroughApi(request);
  const author = by('Priya Nair', '2025-02-03T10:00:00Z');
  const docx = buildDocx({
    body: [
      p('Clauses.'),
      listItem('decimal', 0, 'The Supplier delivers the Goods.'),
      { ...listItem('decimal', 0), mark: { change: 'ins', by: author } },
      listItem('decimal', 0, 'The Customer pays the Price.'),
    ],
  });
  const name = `Pilcrow ${Date.now()}.docx`;
  const upload = await request.post('/api/uploads', { headers: api.headers, multipart: { purpose: 'source_doc', file: { name, mimeType: DOCX_MIME, buffer: Buffer.from(docx) } } });
  expect(upload.status()).toBe(201);
  const draft = await request.post(`/api/uploads/${((await upload.json()) as { id: string }).id}/working-draft`, { headers: api.headers });
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto(`/documents/${((await draft.json()) as { id: string }).id}`);
  const rendered = page.locator('[data-testid=document-render][data-rendered=true]');
  await expect(rendered).toBeAttached({ timeout: 20_000 });
  await expect(rendered.locator('p', { hasText: 'The Supplier delivers the Goods.' })).not.toContainText('¶');
  const item = rendered.locator('p.rl-mark-only');
  await expect(item).toHaveText('¶');
  await expect(item).toBeVisible();
  // Its line is between the two clauses, and its list label is not drawn.
  const [supplier, own, customer] = await Promise.all([rendered.locator('p', { hasText: 'The Supplier delivers' }), item, rendered.locator('p', { hasText: 'The Customer pays' })].map(async (l) => (await l.boundingBox())!.y));
  expect(own).toBeGreaterThan(supplier!);
  expect(own).toBeLessThan(customer!);
  expect(await item.evaluate((el) => getComputedStyle(el, '::before').visibility)).toBe('hidden');
  // The change is still found: choosing it marks the pilcrow's place.
  await page.getByRole('listbox', { name: 'Changes' }).getByRole('option').filter({ hasText: 'Paragraph mark' }).click();
  await expect(item.locator('.rl-here-mark')).toHaveCount(1);
});
