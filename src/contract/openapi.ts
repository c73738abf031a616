import { z } from 'zod';
import { Problem } from './problem';
import { acceptedCredentials, ROUTES, type RouteSpec } from './routes';

/** OpenAPI 3.1 document generated from the route catalogue and its zod schemas. */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, spec] of Object.entries(ROUTES) as [string, RouteSpec][]) {
    const item = (paths[spec.path] ??= {});
    item[spec.method.toLowerCase()] = operation(name, spec);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Redline document service', version: '1.0.0' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http', scheme: 'bearer',
          description: "A session token (x-credentials: web); where an operation's x-credentials list them, the assistant connector's OAuth access token or an rlk_ API key. Any other credential answers 403 session_required.",
        },
        org: { type: 'apiKey', in: 'header', name: 'x-org-id' },
      },
      schemas: { Problem: schema(Problem) },
    },
    paths,
  };
}

function schema(s: z.ZodType): unknown {
  return z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
}

function operation(name: string, spec: RouteSpec): Record<string, unknown> {
  const parameters: unknown[] = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1], in: 'path', required: true, schema: { type: 'string' },
  }));
  for (const [name, description] of Object.entries(spec.requestHeaders ?? {})) {
    parameters.push({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  }
  if (spec.query) {
    const q = schema(spec.query) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [key, value] of Object.entries(q.properties ?? {})) {
      parameters.push({ name: key, in: 'query', required: q.required?.includes(key) ?? false, schema: value });
    }
  }
  const headers = (named: Readonly<Record<string, string>> | undefined) =>
    named ? { headers: Object.fromEntries(Object.entries(named).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) } : {};
  const op: Record<string, unknown> = {
    operationId: name,
    summary: spec.summary,
    parameters,
    ...(spec.access === 'public' ? {} : { 'x-credentials': acceptedCredentials(spec) }),
    security: spec.access === 'public' || spec.access === 'own' ? [] : spec.access === 'session-no-org' ? [{ bearer: [] }] : [{ bearer: [], org: [] }],
    responses: {
      [String(spec.status)]: spec.response
        ? {
            description: spec.minimalResponse ? 'Success: the full answer, or the minimal one when the request said `Prefer: return=minimal` (RFC 7240).' : 'Success',
            ...headers(spec.responseHeaders),
            content: { 'application/json': { schema: spec.minimalResponse ? { anyOf: [schema(spec.response), schema(spec.minimalResponse)] } : schema(spec.response) } },
          }
        : { description: 'Success', ...headers(spec.responseHeaders), ...(spec.responseMediaType ? { content: { [spec.responseMediaType]: {} } } : {}) },
      ...Object.fromEntries((spec.otherResponses ?? []).map((other) => [String(other.status),
        { description: other.description, ...headers(other.headers), content: { 'application/json': { schema: schema(other.response) } } }])),
      default: { description: 'Problem details (RFC 9457)', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
    },
  };
  if (spec.body) {
    const mediaType = spec.bodyKind === 'multipart' ? 'multipart/form-data' : 'application/json';
    op.requestBody = { required: true, content: { [mediaType]: { schema: schema(spec.body) } } };
  } else if (spec.bodyKind === 'docx') {
    op.requestBody = {
      required: true,
      content: { 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {}, 'multipart/form-data': {} },
    };
  }
  return op;
}
