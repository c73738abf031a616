import net from 'node:net';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { DOCUMENT_ROW_FIELDS, DocumentRow } from '../../contract/document';
import { buildKindSample } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

const docx = () => buildKindSample('insert');


describe('uploads', () => {
  let t: TestService;
  let alice: SessionGrant;
  let bob: SessionGrant;

  beforeAll(async () => {
    t = await startTestService({ docxLimits: { maxUncompressedBytes: 8 * 1024 * 1024, maxEntries: 200 } });
    alice = await t.signUpAndSignIn('alice@firm-a.example');
    bob = await t.signUpAndSignIn('bob@firm-b.example');
  });
  afterAll(async () => t.destroy());

  const upload = async (grant: SessionGrant, bytes: Uint8Array, fields: Record<string, string> = { purpose: 'source_doc' }, name = 'Contract.docx', url = '/api/uploads') => {
    const body = multipartBody(fields, { name, bytes });
    return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
  };
  const call = (grant: SessionGrant, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(grant), ...(payload ? { payload } : {}) });
  const expectRow = (value: unknown): DocumentRow => {
    expect(Object.keys(value as object).sort()).toEqual([...DOCUMENT_ROW_FIELDS].sort());
    expect(Object.keys(value as object)).toHaveLength(19);
    return DocumentRow.parse(value);
  };

  it('creates an upload and answers the 19-field row', async () => {
    const bytes = docx();
    const res = await upload(alice, bytes, { purpose: 'playbook', clientReferenceId: 'matter-42' });
    expect(res.statusCode).toBe(201);
    const row = expectRow(res.json());
    expect(row).toMatchObject({
      orgId: alice.orgId, createdByUserId: alice.user.id, fileName: 'Contract.docx', purpose: 'playbook', clientReferenceId: 'matter-42',
      documentVersion: 1, parentUploadId: null, versionKind: 'original', hasBinary: true, status: 'ready', artifactId: null,
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(row.documentSeriesId).toBe(row.id);
    expect(row.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row.storageKey).toBe(`sha256/${row.contentSha256}`);
    expect(row.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = await call(alice, 'GET', `/api/uploads/${row.id}`);
    expect(expectRow(got.json())).toEqual(row);
    const content = await call(alice, 'GET', `/api/uploads/${row.id}/content`);
    expect(content.statusCode).toBe(200);
    expect(content.headers['content-type']).toContain('wordprocessingml');
    expect(content.headers['content-disposition']).toContain('Contract.docx');
    expect(content.rawPayload.byteLength).toBe(row.sizeBytes);
  });

  it('versions a series, starts working drafts and renames', async () => {
    const original = expectRow((await upload(alice, docx())).json());
    const body = multipartBody({}, { name: 'Contract v2.docx', bytes: buildKindSample('delete') });
    const v2res = await t.app.inject({ method: 'POST', url: `/api/uploads/${original.id}/versions`, payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } });
    expect(v2res.statusCode).toBe(201);
    const v2 = expectRow(v2res.json());
    expect(v2).toMatchObject({ documentSeriesId: original.id, documentVersion: 2, parentUploadId: original.id, versionKind: 'original', fileName: 'Contract v2.docx' });
    const d1 = expectRow((await call(alice, 'POST', `/api/uploads/${v2.id}/working-draft`)).json());
    const d2 = expectRow((await call(alice, 'POST', `/api/uploads/${v2.id}/working-draft`)).json());
    expect(d1).toMatchObject({ documentSeriesId: original.id, documentVersion: 3, parentUploadId: v2.id, versionKind: 'working_draft', contentSha256: v2.contentSha256 });
    expect(d2.documentVersion).toBe(4);
    expect(d2.id).not.toBe(d1.id);
    const renamed = await call(alice, 'PATCH', `/api/uploads/${d1.id}`, { fileName: 'Negotiated.docx' });
    expect(renamed.statusCode).toBe(200);
    expect(expectRow(renamed.json()).fileName).toBe('Negotiated.docx');
    const badName = await call(alice, 'PATCH', `/api/uploads/${d1.id}`, { fileName: '../etc/passwd' });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().code).toBe('invalid_request');
  });

  it('adds a new version after the series\' latest uploaded version, also when a working draft is named', async () => {
    const v1 = expectRow((await upload(alice, docx())).json());
    const draft = expectRow((await call(alice, 'POST', `/api/uploads/${v1.id}/working-draft`)).json());
    // Named on the draft (v2), the version follows the version sent, v1: v3, its parent v1.
    const onDraft = await upload(alice, buildKindSample('delete'), {}, 'Their turn.docx', `/api/uploads/${draft.id}/versions`);
    expect(onDraft.statusCode, onDraft.body).toBe(201);
    const v3 = expectRow(onDraft.json());
    expect(v3).toMatchObject({ documentVersion: 3, parentUploadId: v1.id, versionKind: 'original' });
    // A draft of v3, then a version named on it: it follows v3, the latest uploaded version.
    const draft4 = expectRow((await call(alice, 'POST', `/api/uploads/${v3.id}/working-draft`)).json());
    const onDraft4 = await upload(alice, buildKindSample('insert'), {}, 'Their next turn.docx', `/api/uploads/${draft4.id}/versions`);
    expect(expectRow(onDraft4.json())).toMatchObject({ documentVersion: 5, parentUploadId: v3.id, versionKind: 'original' });
    // Named on a version, it follows that version.
    const onV1 = await upload(alice, buildKindSample('delete'), {}, 'Late reply.docx', `/api/uploads/${v1.id}/versions`);
    expect(expectRow(onV1.json())).toMatchObject({ documentVersion: 6, parentUploadId: v1.id });
  });

  it('saves draft bytes only over a working draft', async () => {
    const original = expectRow((await upload(alice, docx())).json());
    const draft = expectRow((await call(alice, 'POST', `/api/uploads/${original.id}/working-draft`)).json());
    const next = buildKindSample('delete');
    const saved = await t.app.inject({ method: 'PUT', url: `/api/documents/${draft.id}/draft`, payload: Buffer.from(next),
      headers: { ...t.headers(alice), 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } });
    expect(saved.statusCode).toBe(200);
    const row = expectRow(saved.json());
    expect(row.contentSha256).not.toBe(draft.contentSha256);
    const refused = await t.app.inject({ method: 'PUT', url: `/api/documents/${original.id}/draft`, payload: Buffer.from(next),
      headers: { ...t.headers(alice), 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('not_working_draft');
  });

  it('lists newest first with cursor paging and a purpose filter', async () => {
    const carol = await t.signUpAndSignIn('carol@firm-c.example');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(expectRow((await upload(carol, docx(), { purpose: i % 2 ? 'playbook' : 'source_doc' }, `Doc ${i}.docx`)).json()).id);
    const page1 = (await call(carol, 'GET', '/api/uploads?limit=2')).json();
    expect(page1.items.map((r: DocumentRow) => r.id)).toEqual([made[4], made[3]]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (await call(carol, 'GET', `/api/uploads?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.items.map((r: DocumentRow) => r.id)).toEqual([made[2], made[1]]);
    const page3 = (await call(carol, 'GET', `/api/uploads?limit=2&cursor=${page2.nextCursor}`)).json();
    expect(page3.items.map((r: DocumentRow) => r.id)).toEqual([made[0]]);
    expect(page3.nextCursor).toBeNull();
    const playbooks = (await call(carol, 'GET', '/api/uploads?purpose=playbook')).json();
    expect(playbooks.items.map((r: DocumentRow) => r.id)).toEqual([made[3], made[1]]);
    expect((await call(carol, 'GET', '/api/uploads?limit=500')).statusCode).toBe(400);
    expect((await call(carol, 'GET', '/api/uploads?cursor=garbage')).statusCode).toBe(400);
  });

  it('pages through rows created within the same millisecond without skipping any', async () => {
    const dave = await t.signUpAndSignIn('dave@firm-d.example');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push(expectRow((await upload(dave, docx(), { purpose: 'source_doc' }, `Same ms ${i}.docx`)).json()).id);
    // Three rows 1 µs apart inside one millisecond, newest last made.
    for (const [i, id] of made.entries()) {
      await t.ctx.db.query(`UPDATE uploads SET created_at = '2026-11-27 10:00:00.123400+00'::timestamptz + ($2 || ' microseconds')::interval WHERE id = $1`, [id, String(i + 1)]);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: DocumentRow[]; nextCursor: string | null } =
        (await call(dave, 'GET', `/api/uploads?limit=1${cursor ? `&cursor=${cursor}` : ''}`)).json();
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual([...made].reverse());
    // A cursor issued before microseconds were kept still pages.
    const legacy = Buffer.from(JSON.stringify({ t: '2026-11-27T10:00:00.124Z', id: made[2] })).toString('base64url');
    expect((await call(dave, 'GET', `/api/uploads?limit=5&cursor=${legacy}`)).json().items.map((r: DocumentRow) => r.id)).toEqual([...made].reverse());
  });

  it("isolates organisations: another org's upload is a 404, never a 403", async () => {
    const row = expectRow((await upload(alice, docx())).json());
    const list = (await call(bob, 'GET', '/api/uploads')).json();
    expect(list.items.find((r: DocumentRow) => r.id === row.id)).toBeUndefined();
    const attempts = [
      await call(bob, 'GET', `/api/uploads/${row.id}`),
      await call(bob, 'GET', `/api/uploads/${row.id}/content`),
      await call(bob, 'PATCH', `/api/uploads/${row.id}`, { fileName: 'x.docx' }),
      await call(bob, 'POST', `/api/uploads/${row.id}/working-draft`),
      await call(bob, 'DELETE', `/api/uploads/${row.id}`),
      await call(bob, 'POST', `/api/uploads/${row.id}/delete`),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    // Alice's upload is untouched.
    expect(expectRow((await call(alice, 'GET', `/api/uploads/${row.id}`)).json())).toEqual(row);
  });

  it('deletes a whole series by DELETE and by the POST alias, and the sweep frees unshared bytes', async () => {
    for (const form of ['DELETE', 'POST'] as const) {
      const bytes = buildKindSample(form === 'DELETE' ? 'r-prop-change' : 'p-prop-change');
      const original = expectRow((await upload(alice, bytes)).json());
      const draft = expectRow((await call(alice, 'POST', `/api/uploads/${original.id}/working-draft`)).json());
      const res = form === 'DELETE' ? await call(alice, 'DELETE', `/api/uploads/${draft.id}`) : await call(alice, 'POST', `/api/uploads/${draft.id}/delete`);
      expect(res.statusCode).toBe(200);
      const row = expectRow(res.json());
      expect(row).toMatchObject({ id: draft.id, status: 'deleted', hasBinary: false, storageKey: null });
      for (const id of [original.id, draft.id]) expect((await call(alice, 'GET', `/api/uploads/${id}`)).statusCode).toBe(404);
      expect((await call(alice, 'DELETE', `/api/uploads/${draft.id}`)).statusCode).toBe(404);
      // Bytes stay within the grace period, go after it.
      expect((await t.ctx.content.sweep(3600_000)).removed).not.toContain(original.contentSha256);
      expect((await t.ctx.content.sweep(0)).removed).toContain(original.contentSha256);
      await expect(t.ctx.content.get(original.contentSha256!)).rejects.toThrow(/missing/);
    }
  });

  it('never sweeps bytes another live row shares', async () => {
    const bytes = buildKindSample('tc-prop-change');
    const a = expectRow((await upload(alice, bytes)).json());
    const b = expectRow((await upload(alice, bytes)).json());
    expect(b.contentSha256).toBe(a.contentSha256);
    await call(alice, 'DELETE', `/api/uploads/${a.id}`);
    expect((await t.ctx.content.sweep(0)).removed).not.toContain(a.contentSha256);
    const content = await call(alice, 'GET', `/api/uploads/${b.id}/content`);
    expect(content.statusCode).toBe(200);
  });

  describe('bad input gets a clear problem and changes nothing', () => {
    const countRows = async () => (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploads'))[0]!.n;

    const cases: [string, () => Uint8Array, number, string][] = [
      ['a PDF renamed .docx', () => strToU8('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF'), 415, 'unsupported_media_type'],
      ['a zip that is not a .docx', () => zipSync({ 'notes.txt': strToU8('hello') }), 415, 'unsupported_media_type'],
      ['a truncated .docx', () => docx().slice(0, 300), 415, 'unsupported_media_type'],
      ['a zip bomb', () => zipSync({
        '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
        'word/document.xml': new Uint8Array(20 * 1024 * 1024),
      }, { level: 9 }), 413, 'payload_too_large'],
      ['an entry flood', () => {
        const files: Record<string, Uint8Array> = {};
        for (let i = 0; i < 400; i++) files[`junk/${i}.xml`] = strToU8('<a/>');
        return zipSync({ ...files, '[Content_Types].xml': strToU8('<Types/>') });
      }, 413, 'payload_too_large'],
      ['an XML external entity', () => {
        const bad = zipSync({
          '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
          '_rels/.rels': strToU8('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
          'word/document.xml': strToU8('<?xml version="1.0"?><!DOCTYPE w [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>'),
        });
        return bad;
      }, 422, 'invalid_docx'],
    ];
    for (const [name, make, status, code] of cases) {
      it(`refuses ${name} with ${status} ${code}`, async () => {
        const before = await countRows();
        const res = await upload(alice, make());
        expect(res.statusCode).toBe(status);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.json()).toMatchObject({ status, code, detail: expect.any(String), title: expect.any(String), type: expect.any(String) });
        expect(await countRows()).toBe(before);
      });
    }

    // Issue 21 item 5: such entries were stored and served back with the download.
    it('refuses entries that are not OPC part names with 422 invalid_docx naming the entry, on create, version and draft save', async () => {
      const withEntry = (name: string) => zipSync({ ...unzipSync(docx()), [name]: strToU8('<x/>') });
      const base = expectRow((await upload(alice, docx())).json());
      const draft = expectRow((await call(alice, 'POST', `/api/uploads/${base.id}/working-draft`)).json());
      const before = await countRows();
      for (const name of ['../../x', '/abs/x', '..\\..\\y', 'WORD/DOCUMENT.XML']) {
        const answers = [
          await upload(alice, withEntry(name)),
          await upload(alice, withEntry(name), {}, 'Contract.docx', `/api/uploads/${base.id}/versions`),
          await t.app.inject({ method: 'PUT', url: `/api/documents/${draft.id}/draft`, payload: Buffer.from(withEntry(name)),
            headers: { ...t.headers(alice), 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } }),
        ];
        for (const res of answers) {
          expect(res.statusCode, name).toBe(422);
          expect(res.json().code).toBe('invalid_docx');
          expect(res.json().detail).toContain(JSON.stringify(name));
        }
      }
      expect(await countRows()).toBe(before);
      const content = await call(alice, 'GET', `/api/uploads/${draft.id}/content`);
      expect(Object.keys(unzipSync(content.rawPayload)).sort()).toEqual(Object.keys(unzipSync(docx())).sort());
    });

    it('refuses a missing file, a wrong purpose, an empty file and a non-multipart body', async () => {
      const before = await countRows();
      const noFile = multipartBody({ purpose: 'source_doc' });
      expect((await t.app.inject({ method: 'POST', url: '/api/uploads', payload: noFile.payload, headers: { ...noFile.headers, ...t.headers(alice) } })).statusCode).toBe(400);
      expect((await upload(alice, docx(), { purpose: 'novel' })).json().code).toBe('invalid_request');
      expect((await upload(alice, new Uint8Array(0))).statusCode).toBe(400);
      const json = await call(alice, 'POST', '/api/uploads', { file: 'x' });
      expect(json.statusCode).toBe(415);
      expect(await countRows()).toBe(before);
    });

    it('answers a malformed form (wrong or missing boundary, cut short) with a 400 problem and keeps nothing', async () => {
      const before = await countRows();
      const good = multipartBody({ purpose: 'source_doc' }, { name: 'Contract.docx', bytes: docx() });
      const goodType = String(good.headers['content-type']);
      const payload = Buffer.from(good.payload);
      const forms: Array<[string, string, Buffer]> = [
        ['a boundary the body does not use', 'multipart/form-data; boundary=not-the-one-used', payload],
        ['no boundary at all', 'multipart/form-data', payload],
        ['a body cut in the middle of the file', goodType, payload.subarray(0, Math.floor(payload.length / 2))],
      ];
      for (const [what, contentType, body] of forms) {
        const res = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body, headers: { ...t.headers(alice), 'content-type': contentType } });
        expect(res.statusCode, what).toBe(400);
        expect(res.headers['content-type'], what).toContain('application/problem+json');
        expect(res.json().code, what).toBe('invalid_request');
      }
      expect(await countRows()).toBe(before);
    });

    it('answers unknown ids and unknown routes with 404 problems', async () => {
      for (const url of ['/api/uploads/00000000-0000-4000-8000-000000000000', '/api/uploads/not-a-uuid', '/api/nothing-here']) {
        const res = await call(alice, 'GET', url);
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
    });

    it('answers 413 to a 200 MB upload before reading it all', async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as net.AddressInfo;
      const declared = 200 * 1024 * 1024;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1');
        let received = '';
        let sent = 0;
        socket.on('data', (d) => {
          received += d.toString('latin1');
          if (received.includes('\r\n\r\n')) {
            socket.destroy();
            resolve(received);
          }
        });
        socket.on('error', (e) => (received ? resolve(received) : reject(e)));
        socket.write(`POST /api/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alice.session_token}\r\nx-org-id: ${alice.orgId}\r\n` +
          `Content-Type: multipart/form-data; boundary=zz\r\nContent-Length: ${declared}\r\n\r\n`);
        const chunk = Buffer.alloc(64 * 1024);
        const pump = () => {
          // Send at most 2 MB of the declared 200 MB: the answer must come before the rest.
          while (sent < 2 * 1024 * 1024 && !socket.destroyed && socket.write(chunk)) sent += chunk.length;
        };
        pump();
        socket.on('drain', pump);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
    });
  });
});
