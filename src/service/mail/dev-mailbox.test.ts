import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cluster/cluster';
import { isLoopbackHost, loadConfig } from '../config';
import { startTestService, type TestService } from '../../../test/support/test-service';

/**
 * The development mailbox hands anyone the newest sign-in code of any address: it is served
 * only where nobody but this machine reaches the service, or with DEV_OUTBOX=true; a
 * service reachable from elsewhere without SMTP_URL refuses to start.
 */

const base = { DATA_DIR: '/tmp/unused', SMTP_URL: '', DEV_OUTBOX: '', TRUST_PROXY: '', HOST: undefined, PUBLIC_URL: undefined } as const;
const config = (env: Record<string, string | undefined>) => loadConfig({ ...base, ...env } as NodeJS.ProcessEnv);

describe('the development mailbox', () => {
  const services: TestService[] = [];
  afterAll(async () => {
    for (const t of services) await t.destroy();
  });

  it('tells loopback hosts from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'redline.example.com', '127.0.0.1.evil.example', '']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('is served by default on loopback, as `npm start` runs', () => {
    expect(config({}).devMailbox).toBe(true);
    expect(config({ HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1:8787' }).devMailbox).toBe(true);
    expect(config({ DEV_OUTBOX: 'false' }).devMailbox).toBe(false);
    // Real mail: never a mailbox.
    expect(config({ SMTP_URL: 'smtp://mail.example:587', DEV_OUTBOX: 'true' }).devMailbox).toBe(false);
  });

  it('refuses to start a service reachable from other machines without SMTP_URL or DEV_OUTBOX=true', () => {
    for (const env of [{ HOST: '0.0.0.0' }, { HOST: '10.0.0.5' }, { TRUST_PROXY: 'true' }, { PUBLIC_URL: 'https://redline.example.com' }]) {
      expect(() => config(env), JSON.stringify(env)).toThrow(/SMTP_URL[\s\S]*DEV_OUTBOX=true/);
      expect(config({ ...env, DEV_OUTBOX: 'true' }).devMailbox, JSON.stringify(env)).toBe(true);
      expect(config({ ...env, SMTP_URL: 'smtp://mail.example:587' }).devMailbox, JSON.stringify(env)).toBe(false);
    }
    expect(() => config({ DEV_OUTBOX: 'yes' })).toThrow(/DEV_OUTBOX must be "true" or "false"/);
  });

  it('is a route only where it is served', async () => {
    const served = await startTestService({ devMailbox: true });
    services.push(served);
    await served.app.inject({ method: 'POST', url: '/api/auth/sign-in/request-code', payload: { identifier: 'x@example.com' } });
    expect((await served.app.inject({ method: 'GET', url: '/api/dev/mailbox?to=x@example.com' })).statusCode).toBe(200);
    const closed = await startTestService({ devMailbox: false });
    services.push(closed);
    await closed.app.inject({ method: 'POST', url: '/api/auth/sign-in/request-code', payload: { identifier: 'x@example.com' } });
    const res = await closed.app.inject({ method: 'GET', url: '/api/dev/mailbox?to=x@example.com' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('`npm start` with HOST=0.0.0.0 and no SMTP_URL exits at once, naming SMTP_URL and DEV_OUTBOX', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-refuse-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
        cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000,
        env: { ...process.env, HOST: '0.0.0.0', PORT: '0', SMTP_URL: '', DEV_OUTBOX: '', DATA_DIR: dataDir, DATABASE_URL: '', STATIC_DIR: '' },
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Redline cannot start');
      expect(run.stderr).toContain('SMTP_URL');
      expect(run.stderr).toContain('DEV_OUTBOX=true');
      expect(run.stderr).toContain('HOST=0.0.0.0');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
