import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { haproxyConfig, type HaproxyConfigOptions } from './haproxy-config';

/** What to tell someone whose machine has no HAProxy. */
export const HAPROXY_MISSING = 'HAProxy is not installed. The local cluster runs behind it, as production does: '
  + 'install it (Debian/Ubuntu: `apt-get install -y haproxy`; macOS: `brew install haproxy`) and start again, '
  + 'or set HAPROXY_BIN to its path.';

/** The haproxy binary: HAPROXY_BIN, else the first on PATH or in /usr/sbin; null when there is none. */
export function findHaproxy(): string | null {
  if (process.env.HAPROXY_BIN) return existsSync(process.env.HAPROXY_BIN) ? process.env.HAPROXY_BIN : null;
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, 'haproxy');
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

/** A backend's state as HAProxy's stats report it: UP, DOWN, or a transition such as "UP 1/2". */
export type BackendStates = Record<string, string>;

export interface Haproxy {
  /** The frontend: what people and clients use. */
  url: string;
  /** The stats page (local only). */
  statsUrl: string;
  pid: number;
  configFile: string;
  backendStates(): Promise<BackendStates>;
  stop(): Promise<void>;
}

/**
 * Writes the configuration to `dir/haproxy.cfg`, checks it (`haproxy -c`), and runs HAProxy in
 * the foreground as a child process, stopped by its own pid.
 */
export async function startHaproxy(options: HaproxyConfigOptions & { dir: string; log?: (line: string) => void }): Promise<Haproxy> {
  const binary = findHaproxy();
  if (!binary) throw new Error(HAPROXY_MISSING);
  const configFile = path.join(options.dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(options));
  const checked = spawnSync(binary, ['-c', '-q', '-f', configFile], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`HAProxy refused ${configFile}:\n${checked.stderr}${checked.stdout}`);

  const child = spawn(binary, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      output.push(line);
      if (output.length > 40) output.shift();
      options.log?.(`[haproxy] ${line}`);
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 10_000;
  while (!(await accepts(options.frontend.host, options.frontend.port))) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited with ${child.exitCode}:\n${output.join('\n')}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`HAProxy did not listen on ${options.frontend.port} within 10 s:\n${output.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const statsUrl = `http://${options.stats.host}:${options.stats.port}/`;
  return {
    url: `http://${options.frontend.host}:${options.frontend.port}`,
    statsUrl,
    pid: child.pid!,
    configFile,
    async backendStates() {
      const csv = await (await fetch(`${statsUrl};csv`, { signal: AbortSignal.timeout(2_000) })).text();
      return parseBackendStates(csv, 'instances');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGUSR1 is HAProxy's soft stop (finish what is running); SIGKILL if it lingers.
      child.kill('SIGUSR1');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Server states of one backend from HAProxy's stats CSV (`# pxname,svname,...,status,...`). */
export function parseBackendStates(csv: string, backend: string): BackendStates {
  const [header, ...rows] = csv.trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const px = columns.indexOf('pxname');
  const sv = columns.indexOf('svname');
  const status = columns.indexOf('status');
  const states: BackendStates = {};
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[px] === backend && cells[sv] !== 'BACKEND' && cells[sv] !== 'FRONTEND' && !cells[sv]!.startsWith('fallback-')) states[cells[sv]!] = cells[status]!;
  }
  return states;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}
