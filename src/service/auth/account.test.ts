import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { buildKindSample } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

describe('sign-up, sessions, members and API keys', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => t.destroy());

  const call = (grant: SessionGrant | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...(grant ? t.headers(grant) : {}), ...headers }, ...(payload ? { payload } : {}) });
  const code = async (email: string) => (await call(null, 'GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json().code as string;

  it('signs up a new user with their own organisation (owner)', async () => {
    const req = await call(null, 'POST', '/api/auth/sign-up/request-code', { identifier: 'founder@newfirm.example', name: 'Fiona Founder', organisation: 'New Firm LLP' });
    expect(req.statusCode).toBe(202);
    const res = await call(null, 'POST', '/api/auth/verify', { identifier: 'founder@newfirm.example', code: await code('founder@newfirm.example') });
    expect(res.statusCode).toBe(200);
    const grant = res.json() as SessionGrant;
    expect(grant.user).toMatchObject({ email: 'founder@newfirm.example', name: 'Fiona Founder' });
    expect(grant.orgs).toEqual([{ id: grant.orgId, name: 'New Firm LLP', role: 'owner' }]);
    // Signing up again with the same address signs in; no second organisation.
    await call(null, 'POST', '/api/auth/sign-up/request-code', { identifier: 'founder@newfirm.example', name: 'X', organisation: 'Other' });
    const again = (await call(null, 'POST', '/api/auth/verify', { identifier: 'founder@newfirm.example', code: await code('founder@newfirm.example') })).json();
    expect(again.orgs).toHaveLength(1);
    const bad = await call(null, 'POST', '/api/auth/sign-up/request-code', { identifier: 'x@y.example' });
    expect(bad.statusCode).toBe(400);
  });

  it('tells an unknown address by e-mail that no account exists, and never signs it in', async () => {
    await call(null, 'POST', '/api/auth/sign-in/request-code', { identifier: 'stranger@nowhere.example' });
    const mail = (await call(null, 'GET', '/api/dev/mailbox?to=stranger%40nowhere.example')).json();
    expect(mail.text).toMatch(/no account/);
    expect((await t.ctx.db.query("SELECT 1 FROM users WHERE email = 'stranger@nowhere.example'")).length).toBe(0);
  });

  it('can close sign-up by configuration', async () => {
    const closed = await startTestService({ signUpOpen: false });
    try {
      const res = await closed.app.inject({ method: 'POST', url: '/api/auth/sign-up/request-code', payload: { identifier: 'a@b.example', name: 'A', organisation: 'B' } });
      expect(res.statusCode).toBe(403);
    } finally {
      await closed.destroy();
    }
  });

  it('lists sessions, ends one, and signs out everywhere', async () => {
    const first = await t.signUpAndSignIn('many@tabs.example');
    const second = await t.signIn('many@tabs.example');
    const third = await t.signIn('many@tabs.example');
    const list = (await call(second, 'GET', '/api/auth/sessions', undefined, { 'x-org-id': '' })).json();
    expect(list.items).toHaveLength(3);
    expect(list.items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const firstId = list.items.find((s: { current: boolean; createdAt: string }) => !s.current && s.createdAt === list.items.map((x: { createdAt: string }) => x.createdAt).sort()[0]).id;
    expect((await call(second, 'DELETE', `/api/auth/sessions/${firstId}`)).statusCode).toBe(204);
    expect((await call(first, 'GET', '/api/auth/session')).statusCode).toBe(401);
    // Another user's session cannot be ended.
    const other = await t.signUpAndSignIn();
    const otherId = (await call(other, 'GET', '/api/auth/sessions')).json().items[0].id;
    expect((await call(second, 'DELETE', `/api/auth/sessions/${otherId}`)).statusCode).toBe(404);
    const out = await call(third, 'POST', '/api/auth/sign-out-everywhere');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ sessionsEnded: 2 });
    for (const g of [second, third]) expect((await call(g, 'GET', '/api/uploads')).statusCode).toBe(401);
    expect((await call(other, 'GET', '/api/uploads')).statusCode).toBe(200);
  });

  it('lets owners invite members, who sign in with a code and find the organisation', async () => {
    const owner = await t.signUpAndSignIn('owner@members.example', 'Members LLP');
    const invited = await call(owner, 'POST', '/api/org/members', { email: 'Associate@Members.example' });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ email: 'associate@members.example', role: 'member' });
    const mail = (await call(null, 'GET', '/api/dev/mailbox?to=associate%40members.example')).json();
    expect(mail.subject).toContain('Members LLP');
    expect((await call(owner, 'POST', '/api/org/members', { email: 'associate@members.example' })).statusCode).toBe(409);
    const associate = await t.signIn('associate@members.example');
    expect(associate.orgs).toEqual([{ id: owner.orgId, name: 'Members LLP', role: 'member' }]);
    const list = (await call(associate, 'GET', '/api/org/members')).json();
    expect(list.items.map((m: { email: string }) => m.email)).toEqual(['owner@members.example', 'associate@members.example']);
    // Members cannot invite or remove others; owners can; the last owner cannot leave.
    expect((await call(associate, 'POST', '/api/org/members', { email: 'x@members.example' })).statusCode).toBe(403);
    expect((await call(associate, 'DELETE', `/api/org/members/${owner.user.id}`)).statusCode).toBe(403);
    const lastOwner = await call(owner, 'DELETE', `/api/org/members/${owner.user.id}`);
    expect(lastOwner.statusCode).toBe(409);
    expect((await call(owner, 'DELETE', `/api/org/members/${associate.user.id}`)).statusCode).toBe(204);
    expect((await call(associate, 'GET', '/api/uploads')).statusCode).toBe(403);
  });

  it('issues API keys that may create, list, read and download uploads only', async () => {
    const owner = await t.signUpAndSignIn('keys@automation.example');
    const created = await call(owner, 'POST', '/api/org/api-keys', { name: 'DMS sync' });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json();
    expect(key).toMatch(/^rlk_[A-Za-z0-9_-]{43}$/);
    const listed = (await call(owner, 'GET', '/api/org/api-keys')).json();
    expect(listed.items).toEqual([expect.objectContaining({ id, name: 'DMS sync' })]);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await t.ctx.db.query('SELECT 1 FROM api_keys WHERE token_sha256 = $1', [key])).length).toBe(0);

    const keyHeaders = { authorization: `Bearer ${key}`, 'x-org-id': owner.orgId };
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Batch.docx', bytes: buildKindSample('insert') });
    const upload = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...keyHeaders } });
    expect(upload.statusCode).toBe(201);
    const uploadId = upload.json().id;
    for (const url of ['/api/uploads', `/api/uploads/${uploadId}`, `/api/uploads/${uploadId}/content`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: keyHeaders })).statusCode).toBe(200);
    }
    const refused: [string, string][] = [
      ['PATCH', `/api/uploads/${uploadId}`], ['POST', `/api/uploads/${uploadId}/versions`], ['POST', `/api/uploads/${uploadId}/working-draft`],
      ['DELETE', `/api/uploads/${uploadId}`], ['POST', `/api/uploads/${uploadId}/delete`], ['GET', `/api/documents/${uploadId}/review`],
      ['POST', `/api/documents/${uploadId}/revisions/apply`], ['POST', `/api/documents/${uploadId}/revisions/undo`],
      ['POST', `/api/documents/${uploadId}/redlines`], ['PUT', `/api/documents/${uploadId}/draft`], ['GET', '/api/org/members'],
      ['GET', '/api/auth/sessions'], ['POST', '/api/org/api-keys'],
    ];
    for (const [method, url] of refused) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: keyHeaders, payload: method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('session_required');
    }
    const otherOrg = await t.signUpAndSignIn();
    expect((await t.app.inject({ method: 'GET', url: '/api/uploads', headers: { ...keyHeaders, 'x-org-id': otherOrg.orgId } })).statusCode).toBe(403);
    expect((await call(owner, 'DELETE', `/api/org/api-keys/${id}`)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/uploads', headers: keyHeaders })).statusCode).toBe(401);
  });
});
