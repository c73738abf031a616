import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The key sign-in codes are MACed under. Production sets CODE_HMAC_KEY (every
 * instance must share it). For a single embedded instance we generate one once and
 * keep it beside the data, never in the database it protects.
 */
export function codeHmacKey(configured: string | null, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secrets', 'code-hmac.key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const key = randomBytes(32).toString('base64url');
    writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return readFileSync(file, 'utf8').trim();
  }
}
