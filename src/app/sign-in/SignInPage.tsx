import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError, describeError } from '../api/errors';
import type * as SignInApi from '../api/sign-in';
import type * as ProviderApi from './provider-api';
import { providerErrorMessage, providerStartHref } from './provider-sign-in-links';
import { sessionStore, useSession } from '../auth/session';
import { useNow } from '../components/useNow';

/** The service refuses a new code to the same address for this long (DESIGN: 60 s resend cooldown). */
const RESEND_COOLDOWN_MS = 60_000;

/** Loaded on first use (see api/sign-in.ts); the promise is shared so it loads once. */
let signInApi: Promise<typeof SignInApi> | null = null;
function loadSignInApi() {
  signInApi ??= import('../api/sign-in');
  return signInApi;
}

/** The provider list is fetched after first paint, with its API module loaded on demand. */
let providerApi: Promise<typeof ProviderApi> | null = null;
function loadProviderApi() {
  providerApi ??= import('./provider-api');
  return providerApi;
}

type Step = { kind: 'email' } | { kind: 'code'; email: string };

function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
}

/** A sentence for each way a sign-in step can fail; the service's `code` decides which. */
function signInMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return describeError(error);
  switch (error.code) {
    case 'invalid_code':
      return 'That code is not right. Check the 8 digits in the e-mail and try again.';
    case 'code_expired':
      return 'That code has expired (codes work for 10 minutes). Send a new code.';
    case 'code_burnt':
      return 'That code no longer works: it was entered wrongly too many times. Send a new code.';
    case 'rate_limited': {
      const wait = (error.retryAfterSeconds ?? 60) * 1000;
      const at = new Date(Date.now() + wait).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
      return `Too many attempts. You can try again in ${formatWait(wait)} (at ${at}).`;
    }
    case 'invalid_request':
      return error.problem?.errors?.[0]?.message ?? error.message;
    default:
      return describeError(error);
  }
}

export function SignInPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [step, setStep] = useState<Step>({ kind: 'email' });
  const [email, setEmail] = useState('');
  // "Create an account": the same code step, asked for with a name and an organisation.
  const [signUp, setSignUp] = useState<{ name: string; organisation: string } | null>(null);
  const nameId = useId();
  const orgId = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A provider sign-in that failed comes back as /sign-in?error=<code>.
  const [providerError] = useState(() => providerErrorMessage(new URLSearchParams(location.search).get('error')));
  const [providers, setProviders] = useState<{ id: string; name: string }[]>([]);
  const [notice, setNotice] = useState<string | null>(() => sessionStore.takeEndedReason());
  // When the next code may be asked for: the cooldown, or the Retry-After of a 429.
  const [resendAt, setResendAt] = useState(0);
  const now = useNow(resendAt > 0 ? 1000 : null);
  const emailId = useId();
  const codeId = useId();
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (step.kind === 'code') codeRef.current?.focus();
  }, [step]);

  useEffect(() => {
    if (session) return;
    const abort = new AbortController();
    loadProviderApi()
      .then((api) => api.listSignInProviders(abort.signal))
      .then(setProviders)
      // No providers shown is the right fallback: e-mail codes always work.
      .catch(() => undefined);
    return () => abort.abort();
  }, [session]);

  if (session) {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from && !from.startsWith('/sign-in') ? from : '/documents'} replace />;
  }

  async function sendCode(address: string) {
    setBusy(true);
    setError(null);
    try {
      const api = await loadSignInApi();
      if (signUp) await api.requestSignUpCode(address.trim(), signUp.name.trim(), signUp.organisation.trim());
      else await api.requestSignInCode(address.trim());
      setStep({ kind: 'code', email: address.trim() });
      setNotice(signUp
        ? `A code to create your account is on its way to ${address.trim()}. It works once, for 10 minutes.`
        : `If ${address.trim()} has an account, a sign-in code is on its way. It works once, for 10 minutes.`);
      setResendAt(Date.now() + RESEND_COOLDOWN_MS);
      setCode('');
    } catch (e) {
      if (e instanceof ApiError && e.code === 'rate_limited') setResendAt(Date.now() + (e.retryAfterSeconds ?? 60) * 1000);
      setError(signInMessage(e));
    } finally {
      setBusy(false);
    }
  }

  async function verify(address: string) {
    const trimmed = code.replace(/\s+/g, '');
    if (!/^\d{8}$/.test(trimmed)) {
      setError('The code is the 8-digit number from the e-mail.');
      codeRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const grant = await (await loadSignInApi()).verifySignInCode(address, trimmed);
      sessionStore.set({ token: grant.session_token, orgId: grant.orgId, user: grant.user, orgs: grant.orgs, expiresAt: grant.expiresAt });
      const from = (location.state as { from?: string } | null)?.from;
      const target = sessionStore.takeReturnTo() ?? from ?? '/documents';
      navigate(target.startsWith('/sign-in') ? '/documents' : target, { replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'rate_limited') setResendAt(Date.now() + (e.retryAfterSeconds ?? 60) * 1000);
      setError(signInMessage(e));
      codeRef.current?.select();
    } finally {
      setBusy(false);
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (step.kind === 'email') void sendCode(email);
    else void verify(step.email);
  };

  const waitMs = resendAt - now;

  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-canvas px-4 pt-[12vh]">
      <div className="w-full max-w-sm rounded-md border border-line bg-paper p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-brand">Redline</h1>
        <p className="mt-1 text-sm text-ink-soft">{signUp ? 'Create an account to review contract drafts.' : 'Sign in to review contract drafts.'}</p>
        {notice && (
          <p role="status" className="mt-4 rounded border border-line bg-canvas p-2 text-sm">
            {notice}
          </p>
        )}
        {providerError && (
          <p role="alert" className="mt-4 rounded border border-danger bg-danger-soft p-2 text-sm text-danger">
            {providerError}
          </p>
        )}
        <form className="mt-4 flex flex-col gap-3" onSubmit={onSubmit} noValidate>
          {step.kind === 'email' ? (
            <>
              {signUp && (
                <>
                  <label htmlFor={nameId} className="text-sm font-medium">Your name</label>
                  <input id={nameId} className="field" name="name" autoComplete="name" required value={signUp.name}
                    onChange={(e) => setSignUp({ ...signUp, name: e.target.value })} autoFocus />
                  <label htmlFor={orgId} className="text-sm font-medium">Organisation</label>
                  <input id={orgId} className="field" name="organization" autoComplete="organization" required value={signUp.organisation}
                    onChange={(e) => setSignUp({ ...signUp, organisation: e.target.value })} />
                </>
              )}
              <label htmlFor={emailId} className="text-sm font-medium">E-mail</label>
              <input
                id={emailId}
                className="field"
                type="email"
                name="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                onFocus={() => void loadSignInApi()}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${emailId}-error` : undefined}
                autoFocus={!signUp}
              />
              <button type="submit" className="btn btn-primary"
                disabled={busy || email.trim() === '' || (signUp !== null && (!signUp.name.trim() || !signUp.organisation.trim()))}>
                {busy ? 'Sending…' : signUp ? 'Create account' : 'Send code'}
              </button>
              <p className="text-sm text-ink-soft">
                {signUp ? 'Already have an account? ' : 'New to Redline? '}
                <button type="button" className="link text-sm" onClick={() => { setSignUp(signUp ? null : { name: '', organisation: '' }); setError(null); setNotice(null); }}>
                  {signUp ? 'Sign in' : 'Create an account'}
                </button>
              </p>
            </>
          ) : (
            <>
              <p className="text-sm">
                Code sent to <strong>{step.email}</strong>.{' '}
                <button type="button" className="link text-sm" onClick={() => { setStep({ kind: 'email' }); setError(null); setNotice(null); }}>
                  Use another address
                </button>
              </p>
              <label htmlFor={codeId} className="text-sm font-medium">Code</label>
              <input
                id={codeId}
                ref={codeRef}
                className="field font-mono tracking-widest"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={12}
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${emailId}-error` : undefined}
              />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {/* The code creates the account when it was asked for to create one: the button says so. */}
                {signUp ? (busy ? 'Creating your account…' : 'Create account') : busy ? 'Signing in…' : 'Sign in'}
              </button>
              <button type="button" className="btn" disabled={busy || waitMs > 0} onClick={() => void sendCode(step.email)}>
                Send a new code
              </button>
              {waitMs > 0 && (
                <p className="text-sm text-ink-soft">You can ask for a new code in {formatWait(waitMs)}.</p>
              )}
            </>
          )}
          {error && (
            <p id={`${emailId}-error`} role="alert" className="rounded border border-danger bg-danger-soft p-2 text-sm text-danger">
              {error}
            </p>
          )}
        </form>
        {step.kind === 'email' && providers.length > 0 && (
          <div className="mt-4 flex flex-col gap-2 border-t border-line pt-4">
            {providers.map((provider) => (
              <a
                key={provider.id}
                className="btn text-center"
                href={providerStartHref(
                  provider.id,
                  (location.state as { from?: string } | null)?.from ?? null,
                  new URLSearchParams(location.search).get('interaction'),
                )}
              >
                Sign in with {provider.name}
              </a>
            ))}
          </div>
        )}
      </div>
    </main>
  );
}
