import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { buildDocx, by, del, heading, ins, p, para } from '../src/docx/fixture/index';
import { signInThroughApi, signInThroughUi, type ApiSession } from './helpers';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const ANALYST = by('Lab Analyst', '2025-03-04T10:00:00Z');
const REVIEWER = by('QA Reviewer', '2025-03-05T11:00:00Z');

/** The steps the analyst inserted, one paragraph each (its text and its mark: two changes). */
export const INSERTED_STEPS = Array.from({ length: 12 }, (_, i) => `Step ${i + 1}: ${[
  'equilibrate the column at 30 °C for 30 minutes',
  'inject the blank and check the baseline',
  'inject the system suitability solution five times',
  'check the tailing factor of the main peak',
  'check the plate count of the main peak',
  'check the RSD of the five areas',
  'inject the standard solution twice',
  'inject each sample solution twice',
  'inject the standard again after every six injections',
  'integrate every peak above the reporting threshold',
  'calculate the assay against the mean standard',
  'record the results in the laboratory notebook',
][i]}.`);

/**
 * A draft whose one edit (twelve steps an analyst inserted, text and mark of each: 24 changes
 * in a row, one entry) later has its members scattered along the list. No entry is scattered as
 * a draft arrives (an edit group is a run of changes consecutive in the listing,
 * revisions/groups.ts), so the review scatters it: an assistant's insertion lands between two of
 * its changes after the review began (the service keeps the edit's entry from the baseline, the
 * new change apart: "Changes 3–7, 9–27"), and the reviewer accepts every other step over the API,
 * one change at a time as a connector may (where the draft is regrouped as it stands, the decided
 * steps keep the entry they were decided in, between the open steps' new ones: before issue 32,
 * "Changes 9, 10, 11, 12, 13, 16, 17, 20, 21, 24, 25").
 */
export function buildScatteredSteps(): Uint8Array {
  return buildDocx({
    title: 'Assay procedure',
    body: [
      heading(1, 'Assay procedure'),
      p('Prepare the solutions as in section 4 ', del(REVIEWER, 'before'), ins(REVIEWER, 'on the day of'), ' the run.'),
      ...INSERTED_STEPS.map((step) => para({ mark: { change: 'ins', by: ANALYST } }, ins(ANALYST, step))),
      p('Report the assay as a percentage of the label claim.'),
    ],
  });
}

interface TrackItemSeen {
  id: string;
  label: string;
  kind?: string | null;
  textPreview?: string | null;
  group?: string;
}

async function trackItems(request: APIRequestContext, api: ApiSession, draftId: string): Promise<TrackItemSeen[]> {
  const review = await request.get(`/api/documents/${draftId}/review`, { headers: api.headers });
  expect(review.ok()).toBe(true);
  return ((await review.json()) as { track: { items: TrackItemSeen[] } }).track.items;
}

/** The entries (by the track's `group`) whose members' change numbers are not consecutive, by leader id. */
export function scatteredEntries(items: readonly TrackItemSeen[]): Map<string, number[]> {
  const numbers = new Map<string, number[]>();
  for (const item of items) {
    const key = item.group ?? item.id;
    const n = Number(/(\d+)$/.exec(item.label)?.[1]);
    numbers.set(key, [...(numbers.get(key) ?? []), n]);
  }
  return new Map([...numbers].filter(([, ns]) => ns.some((n, i) => i > 0 && n !== ns[i - 1]! + 1)));
}

async function accept(request: APIRequestContext, api: ApiSession, draftId: string, ids: readonly string[]): Promise<void> {
  const applied = await request.post(`/api/documents/${draftId}/revisions/apply`, { headers: api.headers, data: { accepted_change_ids: ids } });
  expect(applied.ok(), await applied.text()).toBe(true);
}

/**
 * Uploads the draft, accepts its first edit (the review has begun), has the assistant insert a
 * note after step 3 and accepts steps 5, 7, 9 and 11 (text and mark) over the API; answers the
 * draft's id and its scattered entries.
 */
export async function scatteredStepsDraft(request: APIRequestContext): Promise<{ draftId: string; scattered: Map<string, number[]> }> {
  const api = await signInThroughApi(request);
  const upload = await request.post('/api/uploads', {
    headers: api.headers,
    multipart: { purpose: 'source_doc', file: { name: `Assay procedure ${Date.now()}.docx`, mimeType: DOCX_MIME, buffer: Buffer.from(buildScatteredSteps()) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await request.post(`/api/uploads/${((await upload.json()) as { id: string }).id}/working-draft`, { headers: api.headers });
  const draftId = ((await draft.json()) as { id: string }).id;
  // The review has begun (its first decision) before the assistant writes: its insertion is a new change among the edit's.
  const first = await trackItems(request, api, draftId);
  await accept(request, api, draftId, first.filter((item) => item.group === first[0]!.group).map((item) => item.id));
  const proposed = await request.post(`/api/documents/${draftId}/redlines`, {
    headers: api.headers,
    data: { author: 'Review Assistant', edits: [{ op: 'insert', find: INSERTED_STEPS[2]!, position: 'after', text: ' Repeat if the baseline drifts.', justification: 'A drifting baseline spoils the suitability injections.' }] },
  });
  expect(proposed.ok(), await proposed.text()).toBe(true);
  const items = await trackItems(request, api, draftId);
  const accepted: string[] = [];
  for (const step of [5, 7, 9, 11]) {
    const at = items.findIndex((item) => item.textPreview?.includes(INSERTED_STEPS[step - 1]!));
    expect(at, `step ${step} in the track`).toBeGreaterThan(0);
    expect([items[at]!.kind, items[at + 1]!.kind]).toEqual(['insert', 'paragraph_mark']);
    accepted.push(items[at]!.id, items[at + 1]!.id); // its text, then its paragraph mark
  }
  await accept(request, api, draftId, accepted);
  return { draftId, scattered: scatteredEntries(await trackItems(request, api, draftId)) };
}

/** Signs in and opens the draft with a scattered entry; answers its scattered entries (leader id: change numbers). */
export async function openScatteredSteps(page: Page): Promise<Map<string, number[]>> {
  const { draftId, scattered } = await scatteredStepsDraft(page.request);
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('section[aria-label="Current change"] h2')).toBeVisible({ timeout: 20_000 });
  return scattered;
}
