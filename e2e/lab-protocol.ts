import { expect, type Page } from '@playwright/test';
import { buildDocx, by, del, heading, ins, moveFrom, moveTo, p, para, type CellSpec, type RowSpec, type TableSpec } from '../src/docx/fixture/index';
import { signInThroughApi, signInThroughUi } from './helpers';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const ANALYST = by('Lab Analyst', '2025-03-04T10:00:00Z');
const REVIEWER = by('QA Reviewer', '2025-03-05T11:00:00Z');

function cells(texts: readonly string[], change?: 'ins' | 'del'): CellSpec[] {
  const author = change === 'del' ? REVIEWER : ANALYST;
  return texts.map((text) => ({ width: 3000, content: [p(change === 'ins' ? ins(author, text) : change === 'del' ? del(author, text) : text)] }));
}

/** A table of five rows (a header and four), every row inserted or deleted with its cells' text. */
function trackedTable(change: 'ins' | 'del', rows: readonly (readonly string[])[]): TableSpec {
  const author = change === 'del' ? REVIEWER : ANALYST;
  return {
    type: 'table',
    grid: [3000, 3000, 3000],
    borders: 'single',
    rows: rows.map((texts): RowSpec => ({ change: { change, by: author }, cells: cells(texts, change) })),
  };
}

/**
 * A draft with the lab protocol's shapes (issue 32): paragraphs inserted before an inserted
 * table of five rows, a heading moved between it and a deleted table of five rows, a replacement,
 * an inserted sentence, and runs of inserted and deleted paragraph marks.
 */
export function buildLabProtocol(): Uint8Array {
  return buildDocx({
    title: 'Lab protocol',
    body: [
      heading(1, 'Assay of the reference standard'),
      para({ mark: { change: 'del', by: REVIEWER } }, 'Weigh 25 mg of the standard into a 50 mL flask.'),
      p('Dissolve in diluent and mix well.'),
      heading(2, 'Injection sequence'),
      para({ mark: { change: 'ins', by: ANALYST } }, ins(ANALYST, 'Inject the solutions in the order below.')),
      trackedTable('ins', [
        ['Injection', 'Solution', 'Replicates'],
        ['1', 'Blank', '1'],
        ['2', 'System suitability', '5'],
        ['3', 'Standard', '2'],
        ['4', 'Sample', '2'],
      ]),
      p('Record the retention times.'),
      heading(2, moveFrom(ANALYST, 'acceptance', 'Acceptance criteria')),
      trackedTable('del', [
        ['Parameter', 'Limit', 'Basis'],
        ['Tailing factor', 'NMT 2.0', 'USP <621>'],
        ['Plate count', 'NLT 2000', 'USP <621>'],
        ['RSD of areas', 'NMT 2.0 %', 'ICH Q2'],
        ['Resolution', 'NLT 1.5', 'ICH Q2'],
      ]),
      p('The column is ', del(REVIEWER, 'a C18, 150 mm'), ins(REVIEWER, 'an L1 column, 250 mm'), ' long.'),
      heading(2, moveTo(ANALYST, 'acceptance', 'Acceptance criteria')),
      p('Reference Chromatograms:', ins(ANALYST, ' Attach the chromatograms of the first standard and sample injections.')),
      para({ mark: { change: 'ins', by: ANALYST } }, 'Order of injection: blank, standard'),
      para({ mark: { change: 'ins', by: ANALYST } }, 'sample'),
      p('then bracketing standards.'),
      para({ mark: { change: 'del', by: REVIEWER } }),
      para({ mark: { change: 'del', by: REVIEWER } }),
      para({ mark: { change: 'del', by: REVIEWER } }),
      p('Report the assay as a percentage of the label claim.'),
    ],
  });
}

/** Uploads the lab protocol draft and answers its working draft's id. */
export async function labProtocolDraft(request: Parameters<typeof signInThroughApi>[0]): Promise<string> {
  const api = await signInThroughApi(request);
  const name = `Lab protocol ${Date.now()}.docx`;
  const upload = await request.post('/api/uploads', {
    headers: api.headers,
    multipart: { purpose: 'source_doc', file: { name, mimeType: DOCX_MIME, buffer: Buffer.from(buildLabProtocol()) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await request.post(`/api/uploads/${((await upload.json()) as { id: string }).id}/working-draft`, { headers: api.headers });
  return ((await draft.json()) as { id: string }).id;
}

/** Signs in and opens the lab protocol draft, laid out. */
export async function openLabProtocol(page: Page): Promise<string> {
  const draftId = await labProtocolDraft(page.request);
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
  return draftId;
}
