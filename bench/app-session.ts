import type { Browser, Page } from '@playwright/test';

/** Signing in to a bench service and driving the app as the demo user (bench/app.ts, bench/pages.ts). */
export interface Grant {
  session_token: string;
  orgId: string;
  user: unknown;
  orgs: unknown;
  expiresAt: string;
}

export async function signIn(base: string): Promise<Grant> {
  const email = 'demo@example.com';
  await fetch(`${base}/api/auth/sign-in/request-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: email }) });
  const mail = (await (await fetch(`${base}/api/dev/mailbox?to=${email}`)).json()) as { code: string };
  const res = await fetch(`${base}/api/auth/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: email, code: mail.code }) });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as Grant;
}

export async function api<T>(base: string, grant: Grant, method: string, url: string, body?: FormData): Promise<T> {
  const res = await fetch(`${base}/api${url}`, { method, body, headers: { authorization: `Bearer ${grant.session_token}`, 'x-org-id': grant.orgId } });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Uploads a .docx and starts its working draft; answers the draft's id. */
export async function uploadDraft(base: string, grant: Grant, bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.set('purpose', 'source_doc');
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const original = await api<{ id: string }>(base, grant, 'POST', '/uploads', form);
  return (await api<{ id: string }>(base, grant, 'POST', `/uploads/${original.id}/working-draft`)).id;
}

export async function signedInPage(browser: Browser, grant: Grant, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const session = { token: grant.session_token, orgId: grant.orgId, user: grant.user, orgs: grant.orgs, expiresAt: grant.expiresAt };
  await context.addInitScript((s) => sessionStorage.setItem('redline.session', s), JSON.stringify(session));
  return context.newPage();
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
