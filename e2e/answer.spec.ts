import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { buildDemoContract } from '../src/docx/fixture/index';
import { expectNoAxeViolations, signInThroughUi } from './helpers';

/** Issue 14, the lawyer's answer from the keyboard: counter-proposals (e, w, u) and decision notes (n). */

const SHOTS = process.env.E2E_SHOTS ? `${process.env.E2E_SHOTS}` : null;

async function apiHeaders(page: Page): Promise<Record<string, string>> {
  const raw = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; orgId: string };
  return { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
}

/** A fresh working draft of the demo contract, made over the API as the signed-in user; the review page open on it. */
async function openNewDraft(page: Page, name: string): Promise<string> {
  const headers = await apiHeaders(page);
  const upload = await page.request.post('/api/uploads', {
    headers, multipart: { purpose: 'source_doc', file: { name, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(buildDemoContract()) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await page.request.post(`/api/uploads/${(await upload.json()).id}/working-draft`, { headers });
  const id = (await draft.json()).id as string;
  await page.goto(`/documents/${id}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
  return id;
}

/** The n-th entry of the list: one per edit ("Change 4", or "Changes 2–3" for an edit of two changes). */
function option(page: Page, n: number): Locator {
  return page.locator('[role=option][data-change-id]').nth(n - 1);
}

async function expectCurrent(page: Page, n: number): Promise<void> {
  await expect(option(page, n)).toBeFocused();
  const label = (await option(page, n).locator('span.font-semibold').textContent())!;
  await expect(page.getByRole('heading', { name: label, exact: true })).toBeVisible();
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/${name}-${w}x${h}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function track(page: Page, id: string) {
  const res = await page.request.get(`/api/documents/${id}/review`, { headers: await apiHeaders(page) });
  return (await res.json()).track as { items: { id: string; label: string; state: string; note?: string | null; proposedByUserId?: string; textPreview?: string }[] };
}

test('e proposes a counter-change at the current change and at a selection; it shows at once; w withdraws it, u takes it back', async ({ page }) => {
  test.setTimeout(120_000);
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  const id = await openNewDraft(page, 'E2E Answer Agreement.docx');
  const total = await page.getByRole('listbox', { name: 'Changes' }).getByRole('option').count();
  await expectCurrent(page, 1);

  // The third entry (Change 4) is the other side's insertion "in a professional and workmanlike manner,": e proposes a replacement of it.
  for (let i = 0; i < 2; i++) await page.keyboard.press('j');
  await expectCurrent(page, 3);
  await expect(page.getByRole('heading', { name: 'Change 4', exact: true })).toBeVisible();
  await page.keyboard.press('e');
  const dialog = page.getByRole('dialog', { name: 'Propose a change' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Replace')).toBeChecked();
  await expect(dialog.getByLabel('Text in the draft')).toHaveValue('in a professional and workmanlike manner,');
  await expect(dialog.getByLabel('New text')).toBeFocused();
  await page.keyboard.type('with reasonable skill and care,');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await page.keyboard.type('Our standard: the English-law implied term, nothing wider.');
  await shoot(page, 'answer-propose-dialog');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Control+Enter');
  await expect(dialog).toBeHidden();

  // At once in the list (current, in my name, with my reason) and in the draft.
  await expect(page.getByText('Proposed your change')).toBeVisible();
  // One entry: a replacement is one edit (its deletion and its insertion).
  await expect(page.getByRole('listbox', { name: 'Changes' }).getByRole('option')).toHaveCount(total + 1);
  await expect(page.getByText('Your proposal')).toBeVisible();
  await expect(page.getByTestId('justification')).toHaveText('Our standard: the English-law implied term, nothing wider.');
  await expect(page.locator('[data-testid=document-render] ins', { hasText: 'with reasonable skill and care,' })).toHaveCount(1, { timeout: 20_000 });
  await shoot(page, 'answer-own-proposal');
  let items = (await track(page, id)).items.filter((i) => i.proposedByUserId);
  expect(items.map((i) => i.textPreview).sort()).toEqual(['in a professional and workmanlike manner,', 'with reasonable skill and care,'].sort());

  // w withdraws the whole proposal: its deletion goes with its insertion.
  await page.keyboard.press('w');
  await expect(page.getByText('Withdrew your proposal.')).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Changes' }).getByRole('option')).toHaveCount(total);
  expect((await track(page, id)).items.filter((i) => i.proposedByUserId)).toEqual([]);
  // Someone else's change is not mine to withdraw.
  await option(page, 1).focus();
  await page.keyboard.press('w');
  await expect(page.getByText('is not an open proposal of yours')).toBeVisible();

  // A selection in the draft: select "Customer" in the first paragraph that has it, then e.
  await page.evaluate(() => {
    const p = [...document.querySelectorAll('[data-testid=document-render] p')].find((el) => el.textContent?.includes('Supplier') || el.textContent?.includes('Customer'))!;
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = (n as Text).data.indexOf('Customer');
      if (at >= 0 && !n.parentElement?.closest('del')) {
        const range = document.createRange();
        range.setStart(n, at);
        range.setEnd(n, at + 'Customer'.length);
        getSelection()!.removeAllRanges();
        getSelection()!.addRange(range);
        return;
      }
    }
    throw new Error('no "Customer" in the draft');
  });
  await page.getByRole('region', { name: 'Document' }).focus();
  await page.keyboard.press('e');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('From your selection.')).toBeVisible();
  await expect(dialog.getByLabel('Text in the draft')).toHaveValue('Customer');
  await dialog.getByLabel('Insert after').check();
  await dialog.getByLabel('Text to insert').fill(' (and its Affiliates)');
  await dialog.getByLabel('Reason').fill('Group companies use the service too.');
  await dialog.getByLabel('Reason').press('Control+Enter');
  await expect(page.getByText('Your proposal')).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Changes' }).getByRole('option')).toHaveCount(total + 1);
  await expect(page.locator('[data-testid=document-render] ins', { hasText: '(and its Affiliates)' })).toHaveCount(1, { timeout: 20_000 });
  items = (await track(page, id)).items.filter((i) => i.proposedByUserId);
  expect(items.map((i) => i.textPreview)).toEqual(['(and its Affiliates)']);

  // u takes the proposal back like a batch.
  await page.keyboard.press('u');
  await expect(page.getByText('Took your proposal back.')).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Changes' }).getByRole('option')).toHaveCount(total);
  const after = await track(page, id);
  expect(after.items.filter((i) => i.proposedByUserId)).toEqual([]);
  expect(after.items.every((i) => i.state === 'open')).toBe(true);
});

test('n notes a decision: with the decision on an open change, or later on a decided one; the list, the report and the API show it', async ({ page }) => {
  test.setTimeout(90_000);
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  const id = await openNewDraft(page, 'E2E Notes Agreement.docx');
  await expectCurrent(page, 1);

  // On an open change, n writes the note and Ctrl+Enter rejects with it.
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog', { name: 'Note on Change 1' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Note')).toBeFocused();
  await page.keyboard.type('Bold headings are not our house style.');
  await shoot(page, 'answer-note-dialog');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Control+Enter');
  await expect(dialog).toBeHidden();
  await expectCurrent(page, 2);
  await expect(page.getByText('All decisions saved')).toBeVisible();
  await expect(option(page, 1)).toHaveAttribute('data-state', 'back');
  await expect(option(page, 1)).toContainText('Note: Bold headings are not our house style.');
  let first = (await track(page, id)).items[0]!;
  expect(first).toMatchObject({ state: 'back', note: 'Bold headings are not our house style.' });

  // On a decided change, n changes the note (the note route).
  await page.keyboard.press('k');
  await expectCurrent(page, 1);
  await expect(page.getByTestId('decision-note')).toHaveText('Bold headings are not our house style.');
  await page.keyboard.press('n');
  await expect(dialog.getByLabel('Note')).toHaveValue('Bold headings are not our house style.');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Agreed with the client: no bold in definitions.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Noted the decision on Change 1.')).toBeVisible();
  await expect(page.getByTestId('decision-note')).toHaveText('Agreed with the client: no bold in definitions.');
  await shoot(page, 'answer-noted');
  first = (await track(page, id)).items[0]!;
  expect(first.note).toBe('Agreed with the client: no bold in definitions.');

  // Decide one with a and note it at once with n, before the batch is sent: the note goes with it.
  await page.keyboard.press('j');
  await expectCurrent(page, 2);
  await page.keyboard.press('a');
  await page.keyboard.press('k');
  await page.keyboard.press('n');
  await page.keyboard.type('Fine.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('All decisions saved')).toBeVisible();
  await expect.poll(async () => (await track(page, id)).items[1]!.note).toBe('Fine.');

  // The report downloads from the toolbar, with the notes in it.
  const csv = page.waitForEvent('download');
  await page.getByRole('group', { name: 'Decision report' }).getByRole('button', { name: 'CSV' }).click();
  const file = await (await csv).path();
  const text = (await import('node:fs')).readFileSync(file, 'utf8');
  expect(text).toContain('Agreed with the client: no bold in definitions.');
  expect(text).toContain('Fine.');
  const pdf = page.waitForEvent('download');
  await page.getByRole('group', { name: 'Decision report' }).getByRole('button', { name: 'PDF' }).click();
  expect((await pdf).suggestedFilename()).toBe('E2E Notes Agreement - decision report.pdf');
});
