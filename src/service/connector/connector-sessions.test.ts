import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { ConnectorFlow } from '../../../test/support/connector-flow';
import { startHttpTestService, type TestService } from '../../../test/support/test-service';

/**
 * The sessions page lists only sessions that can still be used: a connector appears once its
 * client has redeemed the authorization code, and leaves when its grant is revoked because a
 * code or a refresh token was used twice (oidc-provider's answer to a stolen one).
 */
describe("the connector's session on the sessions page", () => {
  let t: TestService;
  let flow: ConnectorFlow;
  const email = 'sessions@connector.example';

  beforeAll(async () => {
    t = await startHttpTestService();
    await t.signUpAndSignIn(email, 'Firm');
    flow = new ConnectorFlow(t.config.publicUrl);
  }, 60_000);
  afterAll(async () => t?.destroy());

  async function connectorSessions(): Promise<{ id: string; kind: string }[]> {
    const web: SessionGrant = await t.signIn(email);
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { authorization: `Bearer ${web.session_token}` } });
    expect(res.statusCode).toBe(200);
    return (res.json().items as { id: string; kind: string }[]).filter((s) => s.kind === 'connector');
  }

  it('lists none for a consent whose code is never redeemed, one once it is', async () => {
    const grant = await flow.authorize(email);
    expect(await connectorSessions()).toEqual([]);
    expect((await flow.redeem(grant)).status).toBe(200);
    expect(await connectorSessions()).toHaveLength(1);
    // Reusing the code revokes the grant: its session leaves the list, and its token stops working.
    const reused = await flow.redeem(grant);
    expect(reused.status).toBe(400);
    expect(await connectorSessions()).toEqual([]);
  }, 30_000);

  it('drops the session when a refresh token is reused', async () => {
    const tokens = await flow.connect(email);
    expect(await connectorSessions()).toHaveLength(1);
    const refresh = () => flow.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.clientId });
    expect((await refresh()).status).toBe(200);
    expect(await connectorSessions()).toHaveLength(1);
    expect((await refresh()).status).toBe(400);
    expect(await connectorSessions()).toEqual([]);
  }, 30_000);
});
