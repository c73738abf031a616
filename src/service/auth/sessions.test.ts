import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS } from '../config';
import { startTestService, type TestService } from '../../../test/support/test-service';

describe('sessions', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ auth: { ...DEFAULT_AUTH_LIMITS, resendCooldownMs: 0 } });
  });
  afterAll(async () => t.destroy());

  it('issues a new token at every sign-in', async () => {
    const first = await t.signUpAndSignIn('again@example.com');
    const second = await t.signIn('again@example.com');
    expect(second.session_token).not.toBe(first.session_token);
  });

  it('requires a bearer token and an x-org-id the user belongs to', async () => {
    const alice = await t.signUpAndSignIn();
    const bob = await t.signUpAndSignIn();
    const none = await t.app.inject({ method: 'GET', url: '/api/uploads' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('unauthenticated');
    const bogus = await t.app.inject({ method: 'GET', url: '/api/uploads', headers: { authorization: 'Bearer nope', 'x-org-id': alice.orgId } });
    expect(bogus.statusCode).toBe(401);
    const noOrg = await t.app.inject({ method: 'GET', url: '/api/uploads', headers: { authorization: `Bearer ${alice.session_token}` } });
    expect(noOrg.statusCode).toBe(400);
    const foreign = await t.app.inject({ method: 'GET', url: '/api/uploads', headers: t.headers(alice, bob.orgId) });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('forbidden');
    const ok = await t.app.inject({ method: 'GET', url: '/api/uploads', headers: t.headers(alice) });
    expect(ok.statusCode).toBe(200);
  });

  it('ends the current session on sign-out and no other', async () => {
    const a = await t.signUpAndSignIn('out@example.com');
    const b = await t.signIn('out@example.com');
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: t.headers(a) });
    expect(out.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: t.headers(a) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: t.headers(b) })).statusCode).toBe(200);
  });

  it('ends a session after 7 idle days and after 30 days in all', async () => {
    const idle = await t.signUpAndSignIn();
    await t.ctx.db.query("UPDATE sessions SET last_used_at = now() - interval '7 days 1 minute' WHERE revoked_at IS NULL AND user_id = (SELECT id FROM users WHERE email = $1)", [idle.user.email]);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: t.headers(idle) })).statusCode).toBe(401);

    const old = await t.signUpAndSignIn();
    const rows = await t.ctx.db.query<{ s: number }>("SELECT extract(epoch FROM expires_at - created_at)::int AS s FROM sessions WHERE user_id = $1", [old.user.id]);
    expect(rows[0]!.s).toBe(30 * 24 * 3600);
    await t.ctx.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1", [old.user.id]);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: t.headers(old) })).statusCode).toBe(401);
  });

  it('never writes a token to the log', async () => {
    const lines: string[] = [];
    const logged = await startTestService({ logLevel: 'debug' }, { logger: { write: (line: string) => lines.push(line) } });
    try {
      const grant = await logged.signUpAndSignIn();
      await logged.app.inject({ method: 'GET', url: '/api/uploads', headers: logged.headers(grant) });
      await logged.app.inject({ method: 'GET', url: '/api/uploads', headers: { authorization: `Bearer ${grant.session_token}x`, 'x-org-id': grant.orgId } });
      await logged.app.inject({ method: 'GET', url: '/sign-in/complete?handoff=single-use-secret-value' });
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain(grant.session_token);
      expect(lines.join('\n')).not.toContain('single-use-secret-value');
    } finally {
      await logged.destroy();
    }
  });
});
