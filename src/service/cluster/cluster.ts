import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHaproxy, type BackendStates, type Haproxy } from './haproxy';

/** The repository root: instances run `src/service/main.ts` from there. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ClusterOptions {
  instances: number;
  /** PostgreSQL that every instance shares (rate limits, sessions, locks and rows live there). */
  databaseUrl: string;
  /** BLOB_STORE=s3 and the S3_* variables: the object store every instance shares. */
  blobStoreEnv: Record<string, string>;
  /** Every instance must MAC sign-in codes under the same key, or a code sent by one fails on another. */
  codeHmacKey: string;
  /** Each instance gets `dataDir/instance-N` (it keeps nothing there that another instance needs); HAProxy's configuration goes here too. */
  dataDir: string;
  /** The load balancer's port; 0 or unset picks a free one. Instances listen on the next ports, or on free ones when 0. */
  port?: number;
  /** HAProxy's stats page port (loopback); a free one when unset. */
  statsPort?: number;
  /** Health check interval in ms (default 1000; tests use less). */
  checkIntervalMs?: number;
  /** Extra environment for every instance (rate limits, LOG_LEVEL, ...). */
  env?: Record<string, string>;
  /** Seed the demo organisation (done by the first instance only, before the others start). */
  seedDemo?: boolean;
  /** Where instance and HAProxy output goes: a line sink (prefixed with its source) or nowhere. */
  log?: (line: string) => void;
  startTimeoutMs?: number;
}

export interface ClusterInstance {
  index: number;
  /** HAProxy's name for it (`instance-N`), as answered in X-Redline-Instance. */
  name: string;
  url: string;
  pid: number;
}

export interface Cluster {
  /** The load balancer's address: what people and clients use. */
  url: string;
  statsUrl: string;
  instances: ClusterInstance[];
  /** SIGKILL one instance, as a crash or the OOM killer would; resolves once it is gone. */
  kill(index: number): Promise<void>;
  /** SIGTERM one instance (graceful shutdown); resolves with its exit code once it is gone. */
  terminate(index: number): Promise<number | null>;
  /** Starts a stopped instance again on its port; resolves once it answers (HAProxy's checks then bring it back). */
  restart(index: number): Promise<ClusterInstance>;
  /** Each instance's state in HAProxy (UP, DOWN, or a transition). */
  backendStates(): Promise<BackendStates>;
  /** Resolves once HAProxy reports the instance in `state` ('UP' or 'DOWN'). */
  waitForState(index: number, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Running {
  child: ChildProcess;
  instance: ClusterInstance;
  output: string[];
  exited: Promise<number | null>;
}

/**
 * Starts N service instances (each `node --import tsx src/service/main.ts`, its own process
 * and port) on one PostgreSQL and one S3 store, behind HAProxy on loopback with health checks
 * on the readiness route, retries and redispatch (see haproxy-config.ts). Every process it
 * starts, it stops by its own pid.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!Number.isInteger(options.instances) || options.instances < 1) throw new Error('instances must be a positive integer');
  const running = new Map<number, Running>();
  let haproxy: Haproxy | null = null;
  const checkIntervalMs = options.checkIntervalMs ?? 1_000;
  const fall = 3;
  const stop = async () => {
    await haproxy?.stop();
    await Promise.all([...running.values()].map((r) => stopChild(r)));
  };
  try {
    const basePort = options.port ?? 0;
    const proxyPort = basePort || (await freePort());
    const statsPort = options.statsPort ?? (await freePort());
    const ports: number[] = [];
    for (let i = 1; i <= options.instances; i++) ports.push(basePort ? basePort + i : await freePort());
    const publicUrl = `http://127.0.0.1:${proxyPort}`;
    const launch = (index: number, seed: boolean) => {
      const dataDir = path.join(options.dataDir, `instance-${index}`);
      mkdirSync(dataDir, { recursive: true });
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        // Keep serving while HAProxy notices the failing readiness (fall checks), then stop listening.
        SHUTDOWN_DRAIN_MS: String(checkIntervalMs * (fall + 1)),
        ...options.blobStoreEnv,
        // HAProxy listens on loopback only, so without SMTP_URL the development mailbox is as
        // local as a single `npm start`'s; behind the proxy (TRUST_PROXY) it must be asked for.
        DEV_OUTBOX: process.env.DEV_OUTBOX || 'true',
        ...options.env,
        DATABASE_URL: options.databaseUrl,
        CODE_HMAC_KEY: options.codeHmacKey,
        TRUST_PROXY: 'true',
        HOST: '127.0.0.1',
        PORT: String(ports[index - 1]),
        PUBLIC_URL: publicUrl,
        DATA_DIR: dataDir,
        SEED_DEMO: seed ? 'true' : 'false',
      };
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const entry: Running = {
        child,
        instance: { index, name: `instance-${index}`, url: `http://127.0.0.1:${ports[index - 1]}`, pid: child.pid ?? -1 },
        output: [],
        exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
      };
      const collect = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (!line) continue;
          entry.output.push(line);
          if (entry.output.length > 40) entry.output.shift();
          options.log?.(`[${index}] ${line}`);
        }
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      running.set(index, entry);
      return waitUntilAnswering(entry, options.startTimeoutMs ?? 60_000).then(() => entry.instance);
    };
    // The first instance migrates (and seeds) alone; the rest then start together on a ready schema.
    await launch(1, options.seedDemo ?? false);
    await Promise.all(Array.from({ length: options.instances - 1 }, (_, i) => launch(i + 2, false)));
    haproxy = await startHaproxy({
      dir: options.dataDir,
      frontend: { host: '127.0.0.1', port: proxyPort },
      stats: { host: '127.0.0.1', port: statsPort },
      backends: [...running.values()].map((r) => ({ name: r.instance.name, host: '127.0.0.1', port: ports[r.instance.index - 1]! })),
      checkIntervalMs, fall, rise: 2,
      ...(options.log ? { log: options.log } : {}),
    });
    const lb = haproxy;
    const entryOf = (index: number) => {
      const entry = running.get(index);
      if (!entry) throw new Error(`no instance ${index}`);
      return entry;
    };
    const cluster: Cluster = {
      url: lb.url,
      statsUrl: lb.statsUrl,
      get instances() {
        return [...running.values()].map((r) => r.instance).sort((a, b) => a.index - b.index);
      },
      async kill(index) {
        const entry = entryOf(index);
        entry.child.kill('SIGKILL');
        await entry.exited;
      },
      async terminate(index) {
        const entry = entryOf(index);
        entry.child.kill('SIGTERM');
        return entry.exited;
      },
      async restart(index) {
        const entry = entryOf(index);
        if (entry.child.exitCode === null && entry.child.signalCode === null) throw new Error(`instance ${index} is still running`);
        return launch(index, false);
      },
      backendStates: () => lb.backendStates(),
      async waitForState(index, state, timeoutMs = 15_000) {
        const started = Date.now();
        for (;;) {
          const current = (await lb.backendStates())[`instance-${index}`] ?? '';
          if (current === state) return Date.now() - started;
          if (Date.now() - started > timeoutMs) throw new Error(`instance ${index} is "${current}" in HAProxy, not ${state}, after ${timeoutMs} ms`);
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      stop,
    };
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilAnswering(entry: Running, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  void entry.exited.then((code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`instance ${entry.instance.index} exited with ${exited}:\n${entry.output.join('\n')}`);
    try {
      const res = await fetch(`${entry.instance.url}/api/health/ready`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`instance ${entry.instance.index} was not ready within ${timeoutMs} ms:\n${entry.output.join('\n')}`);
}

async function stopChild(entry: Running): Promise<void> {
  const { child } = entry;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await entry.exited;
  clearTimeout(timer);
}
