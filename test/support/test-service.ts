import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { SessionGrant } from '../../src/contract/auth';
import { addMember, createOrg, createUser } from '../../src/service/auth/directory';
import { createService, type Service, type ServiceParts } from '../../src/service/app';
import { DEFAULT_AUTH_LIMITS, loadConfig, type ServiceConfig } from '../../src/service/config';
import { openTestDatabase } from './test-database';

export interface TestService extends Service {
  config: ServiceConfig;
  /** Creates a user in a new organisation (owner) and signs them in through the real code flow. */
  signUpAndSignIn(email?: string, orgName?: string): Promise<SessionGrant>;
  signIn(email: string, ip?: string): Promise<SessionGrant>;
  /** Authorization + x-org-id headers for a session. */
  headers(grant: SessionGrant, orgId?: string): Record<string, string>;
  destroy(): Promise<void>;
}

/**
 * A complete service on a fresh database and a private data directory, driven with
 * `app.inject` or real HTTP. No mocks: the routes, the database and the mail outbox are real.
 */
export async function startTestService(overrides: Partial<ServiceConfig> = {}, parts: ServiceParts = {}): Promise<TestService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-test-'));
  // In-process (app.inject) or on 127.0.0.1: the tests read sign-in codes from the development mailbox.
  const base = loadConfig({ ...process.env, DATA_DIR: dataDir, STATIC_DIR: '', DATABASE_URL: '', SMTP_URL: '', DEV_OUTBOX: 'true' });
  // Tests sign the same people in many times; the limits' own tests pass DEFAULT_AUTH_LIMITS explicitly.
  const relaxed = { ...DEFAULT_AUTH_LIMITS, resendCooldownMs: 0, maxCodesPerAddressPerHour: 10_000 };
  // Tests upload, compare and draft many times as one user; the heavy limits' own tests pass theirs.
  const heavyLimits = { upload: 100_000, compare: 100_000, working_draft: 100_000, report: 100_000, reading: 100_000 };
  const config: ServiceConfig = { ...base, auth: relaxed, heavyLimits, seedDemo: false, logLevel: 'silent', announceCodes: false, ...overrides };
  const testDb = parts.db ? null : await openTestDatabase();
  const service = await createService(config, { ...parts, db: parts.db ?? testDb!.db, logger: parts.logger ?? false });
  let ipCounter = 0;

  const signIn = async (email: string, ip?: string): Promise<SessionGrant> => {
    // A distinct client address per sign-in keeps per-IP limits out of tests that are not about them.
    const remoteAddress = ip ?? `10.1.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;
    const requested = await service.app.inject({ method: 'POST', url: '/api/auth/sign-in/request-code', payload: { identifier: email }, remoteAddress });
    if (requested.statusCode !== 202) throw new Error(`request-code answered ${requested.statusCode}: ${requested.body}`);
    const mail = await service.app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(email)}` });
    const code = (mail.json() as { code: string | null }).code;
    if (!code) throw new Error(`no code in the outbox for ${email}`);
    const verified = await service.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { identifier: email, code }, remoteAddress });
    if (verified.statusCode !== 200) throw new Error(`verify answered ${verified.statusCode}: ${verified.body}`);
    return verified.json() as SessionGrant;
  };

  return {
    ...service,
    config,
    signIn,
    async signUpAndSignIn(email, orgName) {
      const address = email ?? `user-${randomBytes(4).toString('hex')}@example.com`;
      await service.ctx.db.transaction(async (tx) => {
        const user = await createUser(tx, address, address.split('@')[0]!);
        const orgId = await createOrg(tx, orgName ?? `Org of ${address}`);
        await addMember(tx, orgId, user.id, 'owner');
      });
      return signIn(address);
    },
    headers(grant, orgId) {
      return { authorization: `Bearer ${grant.session_token}`, 'x-org-id': orgId ?? grant.orgId };
    },
    async destroy() {
      await service.close();
      await testDb?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body for app.inject. */
export function multipartBody(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; type?: string; field?: string }): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----redline${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'}\r\n\r\n`));
    chunks.push(Buffer.from(file.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A request function signed in as `grant`: `call('POST', url, payload, { prefer: 'return=minimal' })`, by `app.inject`. */
export function signedInCaller(t: TestService, grant: SessionGrant) {
  return (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...t.headers(grant), ...headers }, ...(payload ? { payload } : {}) });
}

/** Uploads `bytes` as `grant`'s source document and makes a working draft of it: the draft's Document row (throws on any other answer). */
export async function newWorkingDraft(t: TestService, grant: SessionGrant, bytes: Uint8Array, name = 'Draft.docx'): Promise<{ id: string } & Record<string, unknown>> {
  const body = multipartBody({ purpose: 'source_doc' }, { name, bytes });
  const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
  if (created.statusCode !== 201) throw new Error(`upload answered ${created.statusCode}: ${created.body}`);
  const draft = await t.app.inject({ method: 'POST', url: `/api/uploads/${(created.json() as { id: string }).id}/working-draft`, headers: t.headers(grant) });
  if (draft.statusCode !== 201) throw new Error(`working draft answered ${draft.statusCode}: ${draft.body}`);
  return draft.json() as { id: string } & Record<string, unknown>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A test service listening on a free 127.0.0.1 port, PUBLIC_URL its own address, for real
 * HTTP clients (the connector's OAuth flow, streams); the sign-in limits are out of the way,
 * since such tests sign in from one address many times.
 */
export async function startHttpTestService(overrides: Partial<ServiceConfig> = {}, parts: ServiceParts = {}): Promise<TestService & { base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startTestService({
    publicUrl: base, port,
    auth: { ...DEFAULT_AUTH_LIMITS, resendCooldownMs: 0, maxCodesPerAddressPerHour: 10_000, maxSendsPerIpPerMinute: 10_000, maxVerifiesPerIpPer5Minutes: 10_000 },
    ...overrides,
  }, parts);
  await t.app.listen({ host: '127.0.0.1', port });
  return { ...t, base };
}
