import { ROUTES } from '../../contract/routes';
import { callApi } from './client';

/**
 * The two calls of e-mail sign-in. The sign-in page imports this module on demand, so the
 * schemas (and zod) stay out of the first page a signed-out lawyer loads.
 */
export function requestSignInCode(identifier: string) {
  return callApi(ROUTES.requestSignInCode, { body: { identifier } });
}

/** Sign-up: the code goes to a new address; verifying it creates the user and their organisation. */
export function requestSignUpCode(identifier: string, name: string, organisation: string) {
  return callApi(ROUTES.requestSignUpCode, { body: { identifier, name, organisation } });
}

export function verifySignInCode(identifier: string, code: string) {
  return callApi(ROUTES.verifyCode, { body: { identifier, code } });
}
