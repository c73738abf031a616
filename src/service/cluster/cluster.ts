import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

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
  /** Each instance gets `dataDir/instance-N` (it keeps nothing there that another instance needs). */
  dataDir: string;
  /** Proxy port; 0 or unset picks a free one. Instances listen on the next ports, or on free ones when 0. */
  port?: number;
  /** Extra environment for every instance (rate limits, LOG_LEVEL, ...). */
  env?: Record<string, string>;
  /** Seed the demo organisation (done by the first instance only, before the others start). */
  seedDemo?: boolean;
  /** Where instance output goes: a line sink (prefixed with the instance number) or nowhere. */
  log?: (line: string) => void;
  startTimeoutMs?: number;
}

export interface ClusterInstance {
  index: number;
  url: string;
  pid: number;
}

export interface Cluster {
  /** The proxy's address: what people and clients use. */
  url: string;
  instances: ClusterInstance[];
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
}

/**
 * Starts N service instances (each `node --import tsx src/service/main.ts`, its own
 * process and port) on one PostgreSQL and one S3 store, behind a round-robin proxy on
 * loopback. For local use and tests, not production: a real deployment puts its own
 * load balancer in front of the same instances.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!Number.isInteger(options.instances) || options.instances < 1) throw new Error('instances must be a positive integer');
  const running: Running[] = [];
  let proxy: RoundRobinProxy | null = null;
  const stop = async () => {
    await proxy?.close();
    await Promise.all(running.map((r) => stopChild(r.child)));
  };
  try {
    const basePort = options.port ?? 0;
    const proxyPort = basePort || (await freePort());
    const ports: number[] = [];
    for (let i = 1; i <= options.instances; i++) ports.push(basePort ? basePort + i : await freePort());
    const publicUrl = `http://127.0.0.1:${proxyPort}`;
    const launch = (index: number, seed: boolean) => {
      const dataDir = path.join(options.dataDir, `instance-${index}`);
      mkdirSync(dataDir, { recursive: true });
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ...options.blobStoreEnv,
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
      const entry: Running = { child, instance: { index, url: `http://127.0.0.1:${ports[index - 1]}`, pid: child.pid ?? -1 }, output: [] };
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
      running.push(entry);
      return waitUntilReady(entry, options.startTimeoutMs ?? 60_000);
    };
    // The first instance migrates (and seeds) alone; the rest then start together on a ready schema.
    await launch(1, options.seedDemo ?? false);
    await Promise.all(Array.from({ length: options.instances - 1 }, (_, i) => launch(i + 2, false)));
    proxy = await startRoundRobinProxy(running.map((r) => r.instance.url), { port: proxyPort });
    return { url: proxy.url, instances: running.map((r) => r.instance), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(entry: Running, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  entry.child.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`instance ${entry.instance.index} exited with ${exited}:\n${entry.output.join('\n')}`);
    try {
      const res = await fetch(`${entry.instance.url}/api/openapi.json`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`instance ${entry.instance.index} did not answer within ${timeoutMs} ms:\n${entry.output.join('\n')}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
