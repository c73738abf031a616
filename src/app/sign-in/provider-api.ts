import { ROUTES } from '../../contract/routes';
import { callApi } from '../api/client';

/**
 * The calls of provider sign-in. Loaded on demand (the sign-in page imports it after its
 * first paint), so the schemas stay out of the first page a signed-out lawyer loads.
 */
export async function listSignInProviders(signal?: AbortSignal) {
  return (await callApi(ROUTES.listProviders, { signal })).providers;
}

export function tradeHandoff(handoff: string) {
  return callApi(ROUTES.tradeHandoff, { body: { handoff } });
}
