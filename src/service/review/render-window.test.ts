import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { changeBookmarkName } from '../../contract/bookmark';
import { openingChange, withGroupMembers, type Track } from '../../contract/track';
import { buildRenderVariant, listRevisions } from '../../docx';
import { buildBenchmarkContract, buildDemoContract, buildDocx, ins, p } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';
import { cutWindow, layoutOf } from './render-window';

const mainXml = (docx: Uint8Array) => strFromU8(unzipSync(docx)['word/document.xml']!);
const paragraphs = (xml: string) => (xml.match(/<w:p[\s>]/g) ?? []).length;

describe('render window', () => {
  const draft = buildBenchmarkContract({ pages: 12, revisions: 120, seed: 7 });
  const variant = buildRenderVariant(draft);
  const layout = layoutOf(variant);
  const ids = listRevisions(draft).map((r) => r.change_id);

  it('finds the body blocks: they tile the body in order, without overlap', () => {
    expect(layout.blocks.length).toBeGreaterThan(12 * 40);
    for (let i = 1; i < layout.blocks.length; i++) expect(layout.blocks[i]![0]).toBeGreaterThanOrEqual(layout.blocks[i - 1]![1]);
    for (const [start, end] of layout.blocks) {
      const block = layout.xml.slice(start, end);
      expect(block).toMatch(/^<w:(p|tbl|sdt|customXml)[\s>/]/);
      // A whole block: as many of its own kind opened as closed.
      const name = /^<(w:\w+)/.exec(block)![1]!;
      const opens = (block.match(new RegExp(`<${name}[\\s>]`, 'g')) ?? []).length;
      const closes = (block.match(new RegExp(`</${name}>`, 'g')) ?? []).length;
      if (!block.endsWith('/>')) expect(opens).toBe(closes);
    }
  });

  it('cuts around every change: its bookmark is in the window, the final section is kept, and the rest is gone', () => {
    const whole = paragraphs(layout.xml);
    for (const id of ids.filter((_, i) => i % 7 === 0)) {
      const window = cutWindow(layout, id, 30)!;
      expect(window, id).not.toBeNull();
      const xml = mainXml(window.bytes);
      expect(xml).toContain(`w:name="${changeBookmarkName(id)}"`);
      expect(paragraphs(xml)).toBeLessThanOrEqual(61 + 10);
      expect(paragraphs(xml)).toBeLessThan(whole);
      expect(xml.slice(xml.lastIndexOf('<w:sectPr'))).toMatch(/<w:pgSz /);
      expect(xml.endsWith(layout.xml.slice(layout.bodyEnd))).toBe(true);
      expect(window.total).toBe(layout.blocks.length);
      // Every other part is carried over as it was.
      const parts = unzipSync(window.bytes);
      for (const [name, data] of Object.entries(layout.parts)) expect(parts[name], name).toEqual(data);
    }
  });

  it('answers the first blocks without a change, and null for a change not in the body', () => {
    const start = cutWindow(layout, undefined, 20)!;
    expect(start.first).toBe(0);
    expect(mainXml(start.bytes)).toContain(layout.xml.slice(layout.blocks[0]![0], layout.blocks[0]![1]));
    expect(cutWindow(layout, 'c999999', 20)).toBeNull();
  });
});

describe('GET /api/documents/{id}/render-window', () => {
  let t: TestService;
  let alice: SessionGrant;
  let draftId = '';
  let changeIds: string[] = [];

  beforeAll(async () => {
    t = await startTestService();
    alice = await t.signUpAndSignIn('alice@window.example', 'Window LLP');
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Demo.docx', bytes: buildDemoContract() });
    const upload = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } })).json() as { id: string };
    draftId = ((await t.app.inject({ method: 'POST', url: `/api/uploads/${upload.id}/working-draft`, headers: t.headers(alice) })).json() as { id: string }).id;
    const review = (await t.app.inject({ method: 'GET', url: `/api/documents/${draftId}/review`, headers: t.headers(alice) })).json() as { revisions: { change_id: string }[] };
    changeIds = review.revisions.map((r) => r.change_id);
  });
  afterAll(async () => t.destroy());

  it('answers a .docx around the change, saying where it sits in the body', async () => {
    const id = changeIds[Math.floor(changeIds.length / 2)]!;
    const res = await t.app.inject({ method: 'GET', url: `/api/documents/${draftId}/render-window?around=${id}&blocks=10`, headers: t.headers(alice) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('wordprocessingml');
    expect(res.headers['x-render-window']).toMatch(/^\d+\/\d+$/);
    const xml = mainXml(new Uint8Array(res.rawPayload));
    expect(xml).toContain(changeBookmarkName(id));
  });

  it('at=here cuts around the change the review opens at, and follows it as changes are decided', async () => {
    const windowAt = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/documents/${draftId}/render-window?${query}&blocks=10`, headers: t.headers(alice) });
      expect(res.statusCode, query).toBe(200);
      return { header: res.headers['x-render-window'], bytes: Buffer.from(res.rawPayload) };
    };
    const opening = async () => {
      const review = (await t.app.inject({ method: 'GET', url: `/api/documents/${draftId}/review`, headers: t.headers(alice) })).json() as { track: Track };
      return { here: openingChange(review.track), track: review.track };
    };
    // Decided one after another until the change the review opens at is past the start's window.
    const start = await windowAt('');
    let pastStart = 0;
    for (let decided = 0; decided < 40 && pastStart < 2; decided++) {
      const { here, track } = await opening();
      if (here === null) break;
      const window = await windowAt('at=here');
      expect(window).toEqual(await windowAt(`around=${here}`));
      if (window.header !== start.header) pastStart++;
      const res = await t.app.inject({ method: 'POST', url: `/api/documents/${draftId}/revisions/apply`, headers: t.headers(alice), payload: { accepted_change_ids: withGroupMembers(track.items, [here]), rejected_change_ids: [] } });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(pastStart).toBeGreaterThan(0);
  });

  it('at=here on a draft whose only change is in a header answers the start, as no change would', async () => {
    const body = multipartBody({ purpose: 'source_doc' }, {
      name: 'Header.docx',
      bytes: buildDocx({ header: [p('Draft ', ins({ author: 'Counsel', date: '2026-01-05T00:00:00Z' }, 'for discussion'))], body: [p('1. Term.'), p('2. Payment.')] }),
    });
    const upload = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } })).json() as { id: string };
    const id = ((await t.app.inject({ method: 'POST', url: `/api/uploads/${upload.id}/working-draft`, headers: t.headers(alice) })).json() as { id: string }).id;
    const here = await t.app.inject({ method: 'GET', url: `/api/documents/${id}/render-window?at=here&blocks=10`, headers: t.headers(alice) });
    expect(here.statusCode, here.body).toBe(200);
    const start = await t.app.inject({ method: 'GET', url: `/api/documents/${id}/render-window?blocks=10`, headers: t.headers(alice) });
    expect(here.headers['x-render-window']).toBe(start.headers['x-render-window']);
    expect(Buffer.from(here.rawPayload)).toEqual(Buffer.from(start.rawPayload));
  });

  it('refuses a change that is not in the body (422), and bad query values (400)', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: `/api/documents/${draftId}/render-window?around=c424242`, headers: t.headers(alice) });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ code: 'unknown_change_ids', ids: ['c424242'] });
    const bad = await t.app.inject({ method: 'GET', url: `/api/documents/${draftId}/render-window?blocks=2`, headers: t.headers(alice) });
    expect(bad.statusCode).toBe(400);
  });
});
