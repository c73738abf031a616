import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's PostgreSQL 15 puts initdb and pg_ctl; PG_BIN overrides it. */
export const POSTGRES_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why a private cluster cannot be started here, or null when it can. Tests skip with this message. */
export function privatePostgresUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(path.join(POSTGRES_BIN, tool))) return `PostgreSQL binaries not found in ${POSTGRES_BIN} (set PG_BIN): skipping the private-cluster fault tests`;
  }
  if (process.getuid?.() === 0 && !osUser('postgres')) return 'running as root and there is no "postgres" OS user to run PostgreSQL as';
  return null;
}

function osUser(name: string): { uid: number; gid: number } | null {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(from = 55432, span = 2000): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    // A random start keeps concurrent test workers (and other people's) from racing for one port.
    const port = from + Math.floor(Math.random() * span);
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}..${from + span}`);
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust auth, loopback only). */
  url: string;
  port: number;
  /** Fast shutdown (terminates every session, as an operator's restart does), then start again. */
  restart(): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster (if running) and removes its files. Safe to call twice. */
  destroy(): Promise<void>;
}

/**
 * A throw-away PostgreSQL cluster: initdb into a fresh directory under the temp dir,
 * pg_ctl on its own port, trust auth on loopback. Faults (restarts, stops) are done to
 * this cluster only, never to a shared server. PostgreSQL refuses to run as root, so
 * as root every command runs as the `postgres` OS user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const why = privatePostgresUnavailable();
  if (why) throw new Error(why);
  const root = mkdtempSync(path.join(os.tmpdir(), 'redline-pg-'));
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const pgUser = osUser('postgres')!;
    chownSync(root, pgUser.uid, pgUser.gid);
  }
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(POSTGRES_BIN, name), ...args], { timeout: 60_000 })
      : run(path.join(POSTGRES_BIN, name), args, { timeout: 60_000 });

  let port = 0;
  let running = false;
  const start = async () => {
    port = port || await freePort();
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${root} -c max_connections=100`;
    try {
      await tool('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
    } catch (error) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${log}`, { cause: error });
    }
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!running) return;
    await tool('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };

  try {
    await tool('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await start();
  } catch (error) {
    await stop('immediate').catch(() => {});
    rmSync(root, { recursive: true, force: true });
    throw error;
  }

  return {
    get url() {
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    },
    get port() {
      return port;
    },
    start,
    stop,
    async restart() {
      await stop('fast');
      await start();
    },
    async destroy() {
      try {
        await stop('immediate');
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
