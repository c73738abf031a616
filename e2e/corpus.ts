import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { signInThroughUi } from './helpers';
import { CORPUS_FILES_DIR } from '../test/support/shared-corpus';

/** The shared corpus's files/ folder, as every test finds it (test/support/shared-corpus.ts). */
export const CORPUS_FILES = CORPUS_FILES_DIR;

/** Signs in, uploads a corpus file, opens its working draft and waits until it is laid out. */
export async function openCorpusFile(page: Page, name: string): Promise<void> {
  // Uploaded under its last name part: a corpus path holds words ("test-documents") that other specs look for.
  await openDocx(page, `Corpus ${path.basename(name).split('__').pop()!}`, readFileSync(path.isAbsolute(name) ? name : path.join(CORPUS_FILES, name)));
}

/** Signs in, uploads a .docx's bytes, opens its working draft and waits until it is laid out. */
export async function openDocx(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  const raw = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; orgId: string };
  const headers = { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
  const upload = await page.request.post('/api/uploads', {
    headers,
    multipart: { purpose: 'source_doc', file: { name, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(bytes) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await page.request.post(`/api/uploads/${((await upload.json()) as { id: string }).id}/working-draft`, { headers });
  await page.goto(`/documents/${((await draft.json()) as { id: string }).id}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 30_000 });
}
