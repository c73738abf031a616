import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 8 decimal digits from the CSPRNG (ASVS 5.0 6.5.3, 6.5.4). */
export function newSignInCode(): string {
  return randomInt(0, 100_000_000).toString().padStart(8, '0');
}

/** 32 random bytes, base64url (ASVS 5.0 7.2.3). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Sessions and API keys are stored only as the SHA-256 of their token. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Codes are stored as HMAC-SHA-256 under a server key (ASVS 5.0 6.5.2): a leaked
 * database does not reveal live codes, and 10^8 candidates cannot be brute-forced
 * offline without the key. The address is part of the MAC so a code is bound to it.
 */
export function codeMac(key: string, email: string, code: string): string {
  return createHmac('sha256', key).update(`${email}\n${code}`, 'utf8').digest('hex');
}

export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function newId(): string {
  return crypto.randomUUID();
}
