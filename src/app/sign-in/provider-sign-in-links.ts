import type { ProviderSignInError } from '../../contract/account';

/**
 * What the sign-in page needs before any API module loads: where a provider button goes,
 * and a sentence for each way a provider sign-in can fail (the service redirects to
 * `/sign-in?error=<code>`). Type-only imports keep zod out of the entry chunk.
 */
const MESSAGES: Record<ProviderSignInError, string> = {
  access_denied: 'Sign-in was cancelled at the provider. Try again, or sign in with an e-mail code.',
  provider_error: 'The sign-in provider reported an error. Try again, or sign in with an e-mail code.',
  invalid_state: 'That sign-in link is not valid any more (it was used already or did not start here). Start again.',
  state_expired: 'The sign-in took too long (it must finish within 10 minutes). Start again.',
  invalid_id_token: 'The sign-in provider\'s answer could not be verified, so you were not signed in. Try again.',
  no_account: 'No Redline account matches this sign-in. Ask an owner of your organisation to invite you, or sign in with an e-mail code.',
  no_organisation: 'Your account belongs to no organisation. Ask an owner to invite you.',
  provider_unavailable: 'The sign-in provider could not be reached. Try again in a moment, or sign in with an e-mail code.',
};

export function providerErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return (MESSAGES as Record<string, string>)[code] ?? 'Sign-in with the provider failed. Try again, or sign in with an e-mail code.';
}

/** Only paths of this app are returned to (never another origin). */
export function isAppPath(path: string | null | undefined): path is string {
  return !!path && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');
}

/** The service route that starts a provider sign-in; a full-page navigation, not a fetch. */
export function providerStartHref(providerId: string, returnTo: string | null, interaction: string | null): string {
  const query = new URLSearchParams();
  if (isAppPath(returnTo) && !returnTo.startsWith('/sign-in')) query.set('returnTo', returnTo);
  if (interaction) query.set('interaction', interaction);
  const search = query.toString();
  return `/api/auth/providers/${encodeURIComponent(providerId)}/start${search ? `?${search}` : ''}`;
}
