import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS } from '../config';
import { startTestService, type TestService } from '../../../test/support/test-service';
import { codeMac, tokenDigest } from './secrets';
import { addMember, createOrg, createUser } from './directory';

interface Mail { id: number; code: string | null; subject: string; text: string }

async function requestCode(t: TestService, email: string, ip = '10.0.0.1') {
  return t.app.inject({ method: 'POST', url: '/api/auth/sign-in/request-code', payload: { identifier: email }, remoteAddress: ip });
}
async function verify(t: TestService, email: string, code: string, ip = '10.0.0.1') {
  return t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { identifier: email, code }, remoteAddress: ip });
}
async function newestMail(t: TestService, email: string): Promise<Mail> {
  const res = await t.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(email)}` });
  expect(res.statusCode).toBe(200);
  return res.json() as Mail;
}
async function makeUser(t: TestService, email: string, orgName = 'Acme LLP'): Promise<{ userId: string; orgId: string }> {
  return t.ctx.db.transaction(async (tx) => {
    const user = await createUser(tx, email, 'Test User');
    const orgId = await createOrg(tx, orgName);
    await addMember(tx, orgId, user.id, 'owner');
    return { userId: user.id, orgId };
  });
}
const wrongCode = (code: string) => String((Number(code) + 1) % 100_000_000).padStart(8, '0');

describe('e-mail code sign-in', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ auth: DEFAULT_AUTH_LIMITS });
  });
  afterAll(async () => t.destroy());

  it('signs in with the mailed code and answers the session grant', async () => {
    const { orgId, userId } = await makeUser(t, 'alice@example.com');
    const res = await requestCode(t, 'Alice@Example.com ', '10.0.1.1');
    expect(res.statusCode).toBe(202);
    const mail = await newestMail(t, 'alice@example.com');
    expect(mail.code).toMatch(/^\d{8}$/);
    const ok = await verify(t, 'alice@example.com', mail.code!, '10.0.1.1');
    expect(ok.statusCode).toBe(200);
    const grant = ok.json();
    expect(grant.orgId).toBe(orgId);
    expect(grant.user).toEqual({ id: userId, email: 'alice@example.com', name: 'Test User' });
    expect(grant.orgs).toEqual([{ id: orgId, name: 'Acme LLP', role: 'owner' }]);
    expect(grant.session_token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
    expect(Date.parse(grant.expiresAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    // Only the SHA-256 of the token is stored.
    const rows = await t.ctx.db.query<{ token_sha256: string }>('SELECT token_sha256 FROM sessions WHERE user_id = $1', [userId]);
    expect(rows.map((r) => r.token_sha256)).toEqual([tokenDigest(grant.session_token)]);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: t.headers(grant) });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ kind: 'web', user: { email: 'alice@example.com' } });
  });

  it('answers unknown addresses exactly like known ones, and mails them how to get an account', async () => {
    await makeUser(t, 'known@example.com');
    const known = await requestCode(t, 'known@example.com', '10.0.2.1');
    const unknown = await requestCode(t, 'nobody@example.com', '10.0.2.2');
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    const mail = await newestMail(t, 'nobody@example.com');
    expect(mail.code).toBeNull();
    expect(mail.text).toMatch(/no account/i);
    // And no code can sign the unknown address in.
    const res = await verify(t, 'nobody@example.com', '12345678', '10.0.2.2');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_code');
  });

  it('stores codes as HMAC-SHA-256, never in plain', async () => {
    await makeUser(t, 'hmac@example.com');
    await requestCode(t, 'hmac@example.com', '10.0.3.1');
    const { code } = await newestMail(t, 'hmac@example.com');
    const rows = await t.ctx.db.query<{ code_hmac: string }>('SELECT code_hmac FROM sign_in_codes WHERE email = $1', ['hmac@example.com']);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hmac).not.toContain(code!);
    expect(rows[0]!.code_hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.code_hmac).not.toBe(codeMac('some other key', 'hmac@example.com', code!));
  });

  it('consumes a code atomically: of two concurrent verifies exactly one wins', async () => {
    await makeUser(t, 'race@example.com');
    await requestCode(t, 'race@example.com', '10.0.4.1');
    const { code } = await newestMail(t, 'race@example.com');
    const results = await Promise.all([verify(t, 'race@example.com', code!, '10.0.4.2'), verify(t, 'race@example.com', code!, '10.0.4.3')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const again = await verify(t, 'race@example.com', code!, '10.0.4.4');
    expect(again.statusCode).toBe(400);
  });

  it('lets a new code cancel the previous one', async () => {
    const fast = await startTestService({ auth: { ...DEFAULT_AUTH_LIMITS, resendCooldownMs: 0 } });
    try {
      await makeUser(fast, 'twice@example.com');
      await requestCode(fast, 'twice@example.com', '10.0.5.1');
      const firstMail = await newestMail(fast, 'twice@example.com');
      const first = firstMail.code!;
      await requestCode(fast, 'twice@example.com', '10.0.5.2');
      const secondMail = await newestMail(fast, 'twice@example.com');
      const second = secondMail.code!;
      // The outbox numbers messages: a client waiting for the new code tells it from the old one.
      expect(secondMail.id).toBeGreaterThan(firstMail.id);
      if (first !== second) {
        const old = await verify(fast, 'twice@example.com', first, '10.0.5.3');
        expect(old.statusCode).toBe(400);
      }
      const res = await verify(fast, 'twice@example.com', second, '10.0.5.3');
      expect(res.statusCode).toBe(200);
    } finally {
      await fast.destroy();
    }
  });

  it('burns a code after 5 wrong tries, even for the right code afterwards', async () => {
    await makeUser(t, 'burn@example.com');
    await requestCode(t, 'burn@example.com', '10.0.6.1');
    const { code } = await newestMail(t, 'burn@example.com');
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await verify(t, 'burn@example.com', wrongCode(code!), '10.0.6.1')).json().code);
    expect(answers.slice(0, 4)).toEqual(['invalid_code', 'invalid_code', 'invalid_code', 'invalid_code']);
    expect(answers[4]).toBe('code_burnt');
    const right = await verify(t, 'burn@example.com', code!, '10.0.6.1');
    expect(right.statusCode).toBe(400);
    expect(right.json().code).toBe('code_burnt');
  });

  it('refuses an expired code', async () => {
    await makeUser(t, 'late@example.com');
    await requestCode(t, 'late@example.com', '10.0.7.1');
    const { code } = await newestMail(t, 'late@example.com');
    await t.ctx.db.query("UPDATE sign_in_codes SET expires_at = now() - interval '1 second' WHERE email = $1", ['late@example.com']);
    const res = await verify(t, 'late@example.com', code!, '10.0.7.1');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('code_expired');
  });

  it('gives codes a 10-minute lifetime', async () => {
    await makeUser(t, 'life@example.com');
    await requestCode(t, 'life@example.com', '10.0.8.1');
    const rows = await t.ctx.db.query<{ s: number }>('SELECT extract(epoch FROM expires_at - created_at)::int AS s FROM sign_in_codes WHERE email = $1', ['life@example.com']);
    expect(rows[0]!.s).toBe(600);
  });

  it('enforces the 60 s resend cooldown with 429 and Retry-After', async () => {
    await makeUser(t, 'cool@example.com');
    expect((await requestCode(t, 'cool@example.com', '10.0.9.1')).statusCode).toBe(202);
    const res = await requestCode(t, 'cool@example.com', '10.0.9.2');
    expect(res.statusCode).toBe(429);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().code).toBe('rate_limited');
    const retry = Number(res.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
  });

  it('rejects malformed bodies with problem details and changes nothing', async () => {
    const cases = [
      { payload: '{"identifier": ', type: 'application/json' },
      { payload: { identifier: 'not-an-address' } },
      { payload: {} },
      { payload: { identifier: 'a@example.com', extra: 1 } },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/request-code', payload: c.payload as never,
        headers: c.type ? { 'content-type': c.type } : {}, remoteAddress: '10.0.10.1' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, code: 'invalid_request', type: expect.stringContaining('invalid-request') });
    }
    const bad = await verify(t, 'a@example.com', '12ab', '10.0.10.1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('code');
  });
});

describe('sign-in rate limits (kept in the database)', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ auth: { ...DEFAULT_AUTH_LIMITS, resendCooldownMs: 0 } });
  });
  afterAll(async () => t.destroy());

  it('sends at most 5 codes per address per hour', async () => {
    await makeUser(t, 'many@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await requestCode(t, 'many@example.com', `10.2.0.${i}`)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('sends at most 3 codes per IP per minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await requestCode(t, `ip${i}@example.com`, '10.3.0.1')).statusCode);
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect((await requestCode(t, 'ip9@example.com', '10.3.0.2')).statusCode).toBe(202);
  });

  it('allows at most 30 verifies per IP per 5 minutes', async () => {
    let last = 0;
    const codes: string[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await verify(t, `v${i}@example.com`, '00000000', '10.4.0.1');
      last = res.statusCode;
      codes.push(res.json().code);
    }
    expect(codes.slice(0, 30).every((c) => c === 'invalid_code')).toBe(true);
    expect(last).toBe(429);
  });

  it('counts at most 10 failed verifies per address per hour across resends', async () => {
    await makeUser(t, 'guess@example.com');
    let failures = 0;
    let limited = false;
    for (let round = 0; round < 3 && !limited; round++) {
      await requestCode(t, 'guess@example.com', `10.5.${round}.1`);
      const { code } = await newestMail(t, 'guess@example.com');
      for (let i = 0; i < 4; i++) {
        const res = await verify(t, 'guess@example.com', wrongCode(code!), `10.5.${round}.${i + 2}`);
        if (res.statusCode === 429) {
          limited = true;
          break;
        }
        failures++;
      }
    }
    expect(failures).toBe(10);
    expect(limited).toBe(true);
    // The right code is refused too while the address is locked out.
    await requestCode(t, 'guess@example.com', '10.5.9.1');
    const { code } = await newestMail(t, 'guess@example.com');
    expect((await verify(t, 'guess@example.com', code!, '10.5.9.2')).statusCode).toBe(429);
  });
});
