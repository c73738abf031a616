import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Database } from '../store/database';

export interface ConnectorKeys {
  /** Private JWKS oidc-provider signs with (ID tokens, if a client asks for `openid`; its /oauth/jwks publishes the public half). */
  jwks: { keys: Record<string, unknown>[] };
  /** Keys oidc-provider signs its interaction cookies with. */
  cookieKeys: string[];
}

const KEYS_MODEL = 'ServiceKeys';
const KEYS_ID = 'connector';

/**
 * The connector's keys live in the database every instance shares (a row of
 * `oauth_models`, which only the service reads), so several instances sign and verify
 * alike with no extra configuration. The first instance to start generates them;
 * `ON CONFLICT DO NOTHING` makes a race between two first starts harmless (both then
 * read the winner's keys).
 */
export async function loadConnectorKeys(db: Database): Promise<ConnectorKeys> {
  const existing = await read(db);
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' };
  const fresh: ConnectorKeys = { jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] };
  await db.query('INSERT INTO oauth_models (model, id, payload) VALUES ($1, $2, $3) ON CONFLICT (model, id) DO NOTHING',
    [KEYS_MODEL, KEYS_ID, JSON.stringify(fresh)]);
  const stored = await read(db);
  if (!stored) throw new Error('connector keys could not be stored');
  return stored;
}

async function read(db: Database): Promise<ConnectorKeys | null> {
  const rows = await db.query<{ payload: ConnectorKeys }>('SELECT payload FROM oauth_models WHERE model = $1 AND id = $2', [KEYS_MODEL, KEYS_ID]);
  return rows[0]?.payload ?? null;
}
