import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionGrant } from '../../src/contract/auth';
import { freePort } from './private-postgres';

const MAIN = path.resolve('src/service/main.ts');

export interface ChildServiceOptions {
  dataDir: string;
  /** Unset: the embedded PGlite database under dataDir/db. */
  databaseUrl?: string;
  seedDemo?: boolean;
  /** Reuse a port across restarts (sessions and URLs stay valid); a free one when unset. */
  port?: number;
  env?: Record<string, string>;
}

export interface ChildService {
  url: string;
  port: number;
  pid: number;
  /** Resident set size of the service process now (VmRSS), in bytes. */
  rssBytes(): number;
  /** SIGKILL: no shutdown hooks, no flushing; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (the service closes cleanly), SIGKILL after `graceMs`; answers the exit code (null if killed). */
  stop(graceMs?: number): Promise<number | null>;
  /** Sends a signal and returns at once. */
  signal(name: NodeJS.Signals): void;
  /** Settles when the process has exited, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** What the process wrote to stdout and stderr (the newest 64 KB). */
  output(): string;
}

/**
 * The real service (`src/service/main.ts`) as its own process, so it can be killed
 * with SIGKILL exactly as an operator or the OOM killer would. It runs under Node
 * with tsx's loader directly (not through npx, whose wrapper would take the signal
 * instead of the server).
 */
export async function startChildService(options: ChildServiceOptions): Promise<ChildService> {
  const port = options.port ?? await freePort(41000, 4000);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl ?? '',
    SEED_DEMO: options.seedDemo ? 'true' : 'false',
    LOG_LEVEL: 'warn',
    STATIC_DIR: '',
    SMTP_URL: '',
    // Sign-ins here come from one address; the limits have their own tests.
    RATE_SENDS_PER_IP_PER_MINUTE: '1000',
    RATE_VERIFIES_PER_IP_PER_5_MINUTES: '1000',
    RATE_CODES_PER_ADDRESS_PER_HOUR: '1000',
    RATE_RESEND_COOLDOWN_MS: '0',
    // The fuzz and fault runs upload and draft hundreds of times a minute as one user.
    RATE_UPLOADS_PER_USER_PER_MINUTE: '100000',
    RATE_COMPARES_PER_USER_PER_MINUTE: '100000',
    RATE_WORKING_DRAFTS_PER_USER_PER_MINUTE: '100000',
    RATE_REPORTS_PER_USER_PER_MINUTE: '100000',
    RATE_READINGS_PER_USER_PER_MINUTE: '100000',
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited during start-up (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/openapi.json`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const signal = async (child: ChildProcess, name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
  };
  return {
    url,
    port,
    pid: child.pid!,
    rssBytes: () => vmRss(child.pid!),
    async kill() {
      await signal(child, 'SIGKILL');
      await exited;
    },
    async stop(graceMs = 10_000) {
      await signal(child, 'SIGTERM');
      const timer = setTimeout(() => void signal(child, 'SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    signal: (name) => void signal(child, name),
    exited,
    output: () => output,
  };
}

/** VmRSS of a process in bytes (0 once it is gone). */
export function vmRss(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Signs a user in over HTTP through the development mailbox (request code, read it, verify). */
export async function signInOverHttp(url: string, email: string): Promise<SessionGrant> {
  const requested = await fetch(`${url}/api/auth/sign-in/request-code`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: email }),
  });
  if (requested.status !== 202) throw new Error(`request-code answered ${requested.status}: ${await requested.text()}`);
  const mail = await fetch(`${url}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
  const { code } = await mail.json() as { code: string | null };
  if (!code) throw new Error(`no sign-in code in the dev mailbox for ${email}`);
  const verified = await fetch(`${url}/api/auth/verify`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: email, code }),
  });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${await verified.text()}`);
  return await verified.json() as SessionGrant;
}
