import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedCredentials, API_BASE_PATH, ROUTES } from '../../contract/routes';
import { startTestService, type TestService } from '../../../test/support/test-service';

describe('the route catalogue', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => t.destroy());

  it('is exactly what the service registers under /api', () => {
    const catalogue = Object.values(ROUTES).map((r) => `${r.method} ${API_BASE_PATH}${r.path.replace(/\{(\w+)\}/g, ':$1')}`).sort();
    const registered = t.routes.filter((r) => r.split(' ')[1]!.startsWith(`${API_BASE_PATH}/`)).sort();
    expect(registered).toEqual(catalogue);
  });

  it('serves an OpenAPI document generated from it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const spec of Object.values(ROUTES)) {
      const op = doc.paths[spec.path]?.[spec.method.toLowerCase()];
      expect(op, `${spec.method} ${spec.path}`).toBeDefined();
      expect(op.responses[String(spec.status)]).toBeDefined();
      // What each route accepts, as the service enforces it (route-credentials.test.ts walks it).
      if (spec.access !== 'public') expect(op['x-credentials'], `${spec.method} ${spec.path}`).toEqual(acceptedCredentials(spec));
    }
    const apply = doc.paths['/documents/{documentId}/revisions/apply'].post;
    expect(Object.keys(apply.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['accepted_change_ids', 'rejected_change_ids', 'recordDecision', 'record_decision']));
    // The request headers a client needs: retrying a change safely, and waiting for a running check.
    const headerParams = (op: { parameters: { in: string; name: string }[] }) => op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerParams(apply)).toEqual(['idempotency-key', 'Prefer', 'If-Match']);
    expect(apply.responses['200'].headers.ETag).toBeDefined();
    expect(apply.responses['200'].headers['Preference-Applied']).toBeDefined();
    expect(apply.responses['200'].content['application/json'].schema.anyOf).toHaveLength(2);
    expect(apply.responses['200'].headers['idempotent-replayed']).toBeDefined();
    expect(headerParams(doc.paths['/uploads/{uploadId}/untracked'].get)).toEqual(['Prefer']);
  });

  it('sets security headers on every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
