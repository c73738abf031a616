import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the tests keep what LibreOffice made of an input, between runs and between checkouts:
 * `REDLINE_LO_CACHE`, else `~/.cache/redline/libreoffice`, one folder per LibreOffice version (another
 * version may answer otherwise), entries named by the SHA-1 of the input. LibreOffice is the slow
 * oracle of the suite (minutes over the corpus on 2 cores) and its answer for the same bytes does
 * not change, so a clean clone on a machine that ran the tests once asks it only about new bytes.
 * A checkout's `.tmp` would not do: CI starts from a fresh clone.
 */

let version: string | null | undefined;

/** `soffice --version`'s first line ("LibreOffice 7.4.7.2 40(Build:2)"), or null when soffice is absent. */
export function libreOfficeVersion(): string | null {
  if (version === undefined) {
    const run = spawnSync('soffice', ['--version'], { encoding: 'utf8' });
    version = run.status === 0 ? (run.stdout.split('\n').find((l) => l.trim()) ?? '').trim() || 'unknown' : null;
  }
  return version;
}

/** The cache folder for one kind of result (`oracle`, `txt`...) of this LibreOffice version, created; null without soffice. */
export function libreOfficeCacheDir(kind: string): string | null {
  const v = libreOfficeVersion();
  if (v === null) return null;
  const root = process.env.REDLINE_LO_CACHE || path.join(os.homedir(), '.cache', 'redline', 'libreoffice');
  const dir = path.join(root, v.replace(/[^\w.]+/g, '-').replace(/^-|-$/g, ''), kind);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The SHA-1 of an input, as cache entries are named. */
export function cacheKey(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}
