import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { request } from './bench-http';

/**
 * One service process for a benchmark (`src/service/main.ts` under node itself, so the child's
 * pid is the service's and its RSS can be read) on 127.0.0.1:`port`, with a fresh data directory,
 * the demo organisation seeded, outbox mail and sign-in limits relaxed so a benchmark can sign in
 * as often as it needs. The embedded defaults (PGlite, blobs on disk) unless DATABASE_URL /
 * BLOB_STORE in the environment or `env` say otherwise. BENCH_CPU_PROF=<dir> writes a V8 CPU
 * profile of the service there when it stops. Resolves once it answers.
 */
export async function startBenchService(port: number, dataDir: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/service/main.ts'], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true', SMTP_URL: '',
      RATE_RESEND_COOLDOWN_MS: '0', RATE_SENDS_PER_IP_PER_MINUTE: '1000', RATE_CODES_PER_ADDRESS_PER_HOUR: '1000', RATE_VERIFIES_PER_IP_PER_5_MINUTES: '1000',
      // Benches repeat heavy operations as one user faster than a person would.
      RATE_UPLOADS_PER_USER_PER_MINUTE: '100000', RATE_COMPARES_PER_USER_PER_MINUTE: '100000', RATE_WORKING_DRAFTS_PER_USER_PER_MINUTE: '100000',
      RATE_REPORTS_PER_USER_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  // BENCH_SERVICE_START_S: a loaded machine (many helpers at once) starts it slower than 90 s.
  const startS = Number(process.env.BENCH_SERVICE_START_S ?? 90);
  const deadline = Date.now() + startS * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await request(base, 'GET', '/api/openapi.json', { timeoutMs: 2_000 })).status === 200) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`the service did not start within ${startS} s (BENCH_SERVICE_START_S)`);
}

export async function stopBenchService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
