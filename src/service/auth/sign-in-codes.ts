import type { AuthLimits } from '../config';
import { ProblemError } from '../http/problem';
import type { Mailer } from '../mail/mailer';
import { noAccountMessage, signInCodeMessage } from '../mail/messages';
import type { Database, Queryable } from '../store/database';
import { addMember, createOrg, createUser, findUserByEmail } from './directory';
import { hitRateLimit, peekRateLimit, recordRateEvent } from './rate-limits';
import { codeMac, newSignInCode, sameDigest } from './secrets';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type CodePurpose = 'sign_in' | 'sign_up' | 'no_account';

export interface SignUpDetails {
  name: string;
  organisation: string;
}

export interface VerifiedIdentity {
  userId: string;
  /** True when this verification created the user (sign-up). */
  created: boolean;
}

interface CodeRow {
  code_hmac: string;
  purpose: CodePurpose;
  payload: SignUpDetails | null;
  expires_at: Date;
  failed_attempts: number;
}

function tooMany(detail: string, retryAfterSeconds: number): ProblemError {
  return new ProblemError(429, 'rate_limited', detail, { retryAfterSeconds });
}

/**
 * E-mail code sign-in: issuing codes and trading them for an identity. Every rule
 * below is DESIGN.md's "Auth" section; the ASVS 5.0 requirement is named where it is met.
 */
export class SignInCodes {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly limits: AuthLimits,
    private readonly hmacKey: string,
    private readonly appUrl: string,
    private readonly onMailError: (error: unknown) => void,
  ) {}

  /**
   * Issues a code. Existing and unknown addresses take the same path (a code row is
   * written and one e-mail is sent either way; only the e-mail's text differs), so
   * neither the answer nor its timing tells whether an account exists (ASVS 6.3.8).
   */
  async request(email: string, ip: string, purpose: 'sign_in' | 'sign_up', signUp?: SignUpDetails): Promise<void> {
    const code = newSignInCode();
    const message = await this.db.transaction(async (tx) => {
      const perIp = await hitRateLimit(tx, `send:ip:${ip}`, this.limits.maxSendsPerIpPerMinute, MINUTE);
      if (!perIp.allowed) throw tooMany('Too many codes requested from this network. Wait a minute and try again.', perIp.retryAfterSeconds);
      const cooldown = await peekRateLimit(tx, `send:addr:${email}`, 1, this.limits.resendCooldownMs);
      if (!cooldown.allowed) throw tooMany('A code was sent to this address moments ago. Wait before asking for another.', cooldown.retryAfterSeconds);
      const hourly = await hitRateLimit(tx, `send-hour:addr:${email}`, this.limits.maxCodesPerAddressPerHour, HOUR);
      if (!hourly.allowed) throw tooMany('Too many codes were sent to this address in the last hour.', hourly.retryAfterSeconds);
      await recordRateEvent(tx, `send:addr:${email}`);

      const user = await findUserByEmail(tx, email);
      const effective: CodePurpose = purpose === 'sign_in' ? (user ? 'sign_in' : 'no_account') : user ? 'sign_in' : 'sign_up';
      // A new code replaces the previous one, which stops working at once.
      await tx.query(
        `INSERT INTO sign_in_codes (email, code_hmac, purpose, payload, created_at, expires_at, failed_attempts)
         VALUES ($1, $2, $3, $4, now(), now() + make_interval(secs => $5::double precision / 1000), 0)
         ON CONFLICT (email) DO UPDATE SET code_hmac = EXCLUDED.code_hmac, purpose = EXCLUDED.purpose,
           payload = EXCLUDED.payload, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, failed_attempts = 0`,
        [email, codeMac(this.hmacKey, email, code), effective, effective === 'sign_up' ? JSON.stringify(signUp ?? null) : null,
          this.limits.codeLifetimeMs],
      );
      return effective === 'no_account'
        ? noAccountMessage(email, this.appUrl)
        : signInCodeMessage(email, code, this.appUrl, Math.round(this.limits.codeLifetimeMs / MINUTE));
    });
    await this.deliver(message);
  }

  /**
   * Trades a code for an identity. The code row is locked, checked and consumed in
   * one transaction, so of two concurrent verifies of one code exactly one wins
   * (ASVS 6.5.1). Failures are committed before the error is answered.
   */
  async verify(email: string, code: string, ip: string): Promise<VerifiedIdentity> {
    const outcome = await this.db.transaction(async (tx): Promise<VerifiedIdentity | ProblemError> => {
      const perIp = await hitRateLimit(tx, `verify:ip:${ip}`, this.limits.maxVerifiesPerIpPer5Minutes, 5 * MINUTE);
      if (!perIp.allowed) return tooMany('Too many sign-in attempts from this network. Try again later.', perIp.retryAfterSeconds);
      const failures = await peekRateLimit(tx, `verify-fail:addr:${email}`, this.limits.maxFailedVerifiesPerAddressPerHour, HOUR);
      if (!failures.allowed) return tooMany('Too many wrong codes for this address. Try again later.', failures.retryAfterSeconds);

      const rows = await tx.query<CodeRow>(
        'SELECT code_hmac, purpose, payload, expires_at, failed_attempts FROM sign_in_codes WHERE email = $1 FOR UPDATE', [email]);
      const row = rows[0];
      const fail = async (error: ProblemError) => {
        await recordRateEvent(tx, `verify-fail:addr:${email}`);
        return error;
      };
      if (!row) return fail(new ProblemError(400, 'invalid_code', 'That code is not valid. Request a new code.'));
      if (row.failed_attempts >= this.limits.maxWrongTriesPerCode) {
        return fail(new ProblemError(400, 'code_burnt', 'Too many wrong tries: this code no longer works. Request a new code.'));
      }
      if (row.expires_at.getTime() <= Date.now()) {
        return fail(new ProblemError(400, 'code_expired', 'That code has expired. Request a new code.'));
      }
      if (!sameDigest(row.code_hmac, codeMac(this.hmacKey, email, code)) || row.purpose === 'no_account') {
        const attempts = row.failed_attempts + 1;
        await tx.query('UPDATE sign_in_codes SET failed_attempts = $2 WHERE email = $1', [email, attempts]);
        const left = this.limits.maxWrongTriesPerCode - attempts;
        return fail(left > 0
          ? new ProblemError(400, 'invalid_code', `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`)
          : new ProblemError(400, 'code_burnt', 'Too many wrong tries: this code no longer works. Request a new code.'));
      }
      await tx.query('DELETE FROM sign_in_codes WHERE email = $1', [email]);
      return this.identityFor(tx, email, row);
    });
    if (outcome instanceof ProblemError) throw outcome;
    return outcome;
  }

  private async identityFor(tx: Queryable, email: string, row: CodeRow): Promise<VerifiedIdentity | ProblemError> {
    const existing = await findUserByEmail(tx, email);
    if (existing) return { userId: existing.id, created: false };
    if (row.purpose !== 'sign_up' || !row.payload) {
      return new ProblemError(400, 'invalid_code', 'That code is not valid. Request a new code.');
    }
    const user = await createUser(tx, email, row.payload.name);
    const orgId = await createOrg(tx, row.payload.organisation);
    await addMember(tx, orgId, user.id, 'owner');
    return { userId: user.id, created: true };
  }

  private async deliver(message: Parameters<Mailer['send']>[0]): Promise<void> {
    // The outbox is a local insert: awaited, so a test can read the code right after
    // the 202. SMTP is not awaited, so a slow mail server cannot slow (or reveal) anything.
    if (this.mailer.mode === 'outbox') {
      await this.mailer.send(message).catch(this.onMailError);
    } else {
      void this.mailer.send(message).catch(this.onMailError);
    }
  }
}
