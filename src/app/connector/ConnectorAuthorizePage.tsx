import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { ConnectorInteraction } from '../../contract/account';
import type { SessionGrant } from '../../contract/auth';
import { ROUTES } from '../../contract/routes';
import { ApiError, callApi, describeError } from '../api/client';
import { requestSignInCode, verifySignInCode } from '../api/sign-in';
import { sessionStore, useSession } from '../auth/session';

/**
 * The assistant connector's authorization page. oidc-provider's authorization endpoint
 * sends the browser here (by way of /oauth/interaction/<uid>, which binds the
 * authorization to this browser). The person signs in with an e-mail code, or with a
 * sign-in provider (whose callback comes back here with a single-use `handoff`), then
 * sees who is asking, where the answer goes and what the assistant may do, and answers.
 * The answer's `redirectTo` finishes the authorization, which sends the browser back to
 * the assistant. Nothing is ever pasted.
 */

function keep(grant: SessionGrant): void {
  sessionStore.set({ token: grant.session_token, orgId: grant.orgId, user: grant.user, orgs: grant.orgs, expiresAt: grant.expiresAt });
}

function problemMessage(error: unknown): string {
  if (error instanceof ApiError && (error.code === 'interaction_expired' || error.status === 403)) {
    return `${error.message}`;
  }
  if (error instanceof ApiError && error.code === 'invalid_code') return 'That code is not right. Check the 8 digits in the e-mail and try again.';
  return describeError(error);
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-canvas px-4 pt-[10vh]">
      <div className="w-full max-w-md rounded-md border border-line bg-paper p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-brand">Redline</h1>
        {children}
      </div>
    </main>
  );
}

function EmailSignIn({ onError }: { onError: (message: string | null) => void }) {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const emailId = useId();
  const codeId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    onError(null);
    try {
      if (!sentTo) {
        await requestSignInCode(email.trim());
        setSentTo(email.trim());
      } else {
        keep(await verifySignInCode(sentTo, code.replace(/\s+/g, '')));
      }
    } catch (error) {
      onError(problemMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="mt-4 flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
      {!sentTo ? (
        <>
          <label htmlFor={emailId} className="text-sm font-medium">E-mail</label>
          <input id={emailId} className="field" type="email" name="email" autoComplete="username" required autoFocus
            value={email} onChange={(e) => setEmail(e.target.value)} />
          <button type="submit" className="btn btn-primary" disabled={busy || email.trim() === ''}>{busy ? 'Sending…' : 'Send code'}</button>
        </>
      ) : (
        <>
          <p className="text-sm">If <strong>{sentTo}</strong> has an account, a sign-in code is on its way. It works once, for 10 minutes.</p>
          <label htmlFor={codeId} className="text-sm font-medium">Code</label>
          <input id={codeId} className="field font-mono tracking-widest" name="code" inputMode="numeric" autoComplete="one-time-code"
            maxLength={12} required autoFocus value={code} onChange={(e) => setCode(e.target.value)} />
          <button type="submit" className="btn btn-primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        </>
      )}
    </form>
  );
}

export function ConnectorAuthorizePage() {
  const [params, setParams] = useSearchParams();
  const interaction = params.get('interaction');
  const handoff = params.get('handoff');
  const session = useSession();
  const [details, setDetails] = useState<ConnectorInteraction | null>(null);
  const [providers, setProviders] = useState<{ id: string; name: string }[]>([]);
  const [error, setError] = useState<string | null>(params.get('error') ? 'This authorization has expired or was started in another browser. Start again from your assistant.' : null);
  const [chosenOrg, setOrgId] = useState<string | null>(null);
  const orgId = chosenOrg ?? session?.orgId ?? '';
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!interaction) return;
    const controller = new AbortController();
    callApi(ROUTES.connectorInteraction, { params: { interaction }, signal: controller.signal })
      .then(setDetails)
      .catch((e: unknown) => {
        if (!(e instanceof DOMException && e.name === 'AbortError')) setError(problemMessage(e));
      });
    callApi(ROUTES.listProviders, { signal: controller.signal }).then((r) => setProviders(r.providers)).catch(() => setProviders([]));
    return () => controller.abort();
  }, [interaction]);

  // Back from a sign-in provider: trade the single-use handoff for a session, and drop it from the address.
  useEffect(() => {
    if (!handoff) return;
    const next = new URLSearchParams(params);
    next.delete('handoff');
    setParams(next, { replace: true });
    callApi(ROUTES.tradeHandoff, { body: { handoff } }).then(keep).catch((e: unknown) => setError(problemMessage(e)));
  }, [handoff, params, setParams]);

  async function answer(approve: boolean) {
    if (!interaction || busy) return;
    setBusy(true);
    setError(null);
    try {
      const { redirectTo } = await callApi(ROUTES.connectorConsent, { body: { interaction, approve, ...(orgId ? { orgId } : {}) } });
      window.location.assign(redirectTo);
    } catch (e) {
      setError(problemMessage(e));
      setBusy(false);
    }
  }

  if (!interaction) {
    return (
      <Frame>
        <p role="alert" className="mt-4 rounded border border-danger bg-danger-soft p-2 text-sm text-danger">
          {error ?? 'No authorization is in progress. Start connecting from your assistant.'}
        </p>
      </Frame>
    );
  }

  const who = details ? (details.clientName ?? details.clientId) : 'An assistant';
  return (
    <Frame>
      <p className="mt-1 text-sm text-ink-soft">
        <strong>{who}</strong> wants to connect to your Redline account.
      </p>
      {!session ? (
        <>
          <p className="mt-3 text-sm">Sign in to continue.</p>
          <EmailSignIn onError={setError} />
          {providers.length > 0 && (
            <div className="mt-4 flex flex-col gap-2">
              {providers.map((p) => (
                <a key={p.id} className="btn" href={`/api/auth/providers/${encodeURIComponent(p.id)}/start?interaction=${encodeURIComponent(interaction)}`}>
                  Sign in with {p.name}
                </a>
              ))}
            </div>
          )}
        </>
      ) : details ? (
        <section aria-labelledby="consent-heading" className="mt-4 flex flex-col gap-3">
          <h2 id="consent-heading" className="text-base font-semibold">Allow {who} to act for you?</h2>
          <p className="text-sm">
            Signed in as <strong>{session.user.email}</strong>. Its answer goes to <strong>{details.redirectHost}</strong>.
          </p>
          <p className="text-sm font-medium">It will be able to:</p>
          <ul className="list-disc pl-5 text-sm">
            {details.abilities.map((ability) => <li key={ability}>{ability}</li>)}
          </ul>
          {session.orgs.length > 1 && (
            <label className="flex flex-col gap-1 text-sm">
              <span className="font-medium">For the organisation</span>
              <select className="field" value={orgId} onChange={(e) => setOrgId(e.target.value)}>
                {session.orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
              </select>
            </label>
          )}
          <p className="text-sm">Nothing else: it cannot manage your organisation, its members, API keys or sessions.</p>
          <p className="text-sm text-ink-soft">You can disconnect it at any time by ending its session, or by signing out everywhere.</p>
          <div className="flex gap-2">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void answer(true)}>Allow</button>
            <button type="button" className="btn" disabled={busy} onClick={() => void answer(false)}>Deny</button>
          </div>
        </section>
      ) : (
        !error && <p className="mt-4 text-sm" role="status">Loading…</p>
      )}
      {error && (
        <p role="alert" className="mt-4 rounded border border-danger bg-danger-soft p-2 text-sm text-danger">{error}</p>
      )}
    </Frame>
  );
}
