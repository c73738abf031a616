/**
 * HTTP helpers shared by bench/load.ts and bench/review.ts: one request with its latency
 * (to the last byte of the answer), the sign-in code flow, and latency summaries.
 */
import http from 'node:http';

export interface Timed {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** From sending the request to the last byte of the answer. */
  ms: number;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: object | Buffer;
  /** Loopback source address, so one process can be many clients (per-IP rate limits). */
  from?: string;
  agent?: http.Agent;
  timeoutMs?: number;
}

export function request(base: string, method: string, url: string, options: RequestOptions = {}): Promise<Timed> {
  const target = new URL(url, base);
  const payload = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (payload && !Buffer.isBuffer(options.body)) headers['content-type'] = 'application/json';
  if (payload) headers['content-length'] = String(payload.byteLength);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers,
      ...(options.from ? { localAddress: options.from } : {}),
      agent: options.agent ?? false, timeout: options.timeoutMs ?? 60_000,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export function json<T>(answer: Timed): T {
  return JSON.parse(answer.body.toString('utf8')) as T;
}

export function expectStatus(answer: Timed, status: number, what: string): Timed {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
  return answer;
}

/** The real code flow: request a code, read it from the development outbox, verify it. */
export async function signIn(base: string, email: string, from: string): Promise<{ token: string; orgId: string; headers: Record<string, string> }> {
  expectStatus(await request(base, 'POST', '/api/auth/sign-in/request-code', { body: { identifier: email }, from }), 202, 'request-code');
  const mail = json<{ code: string | null }>(await request(base, 'GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`, { from }));
  if (!mail.code) throw new Error(`no code in the outbox for ${email}`);
  const grant = json<{ session_token: string; orgId: string }>(
    expectStatus(await request(base, 'POST', '/api/auth/verify', { body: { identifier: email, code: mail.code }, from }), 200, 'verify'));
  return { token: grant.session_token, orgId: grant.orgId, headers: { authorization: `Bearer ${grant.session_token}`, 'x-org-id': grant.orgId } };
}

/** A multipart/form-data body with one .docx file. */
export function docxForm(fields: Record<string, string>, fileName: string, bytes: Uint8Array): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----redlinebench${Date.now().toString(16)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document\r\n\r\n`));
  parts.push(Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

export const ms = (x: number) => `${Number.isFinite(x) ? x.toFixed(0) : '-'} ms`;

export function latencyLine(xs: readonly number[]): string {
  return `p50 ${ms(percentile(xs, 50))}, p95 ${ms(percentile(xs, 95))}, p99 ${ms(percentile(xs, 99))}`;
}

/** Median duration per phase of the service's Server-Timing headers over several answers, as one line. */
export function serverTimingLine(answers: readonly Timed[]): string {
  const phases = new Map<string, number[]>();
  for (const a of answers) {
    const header = a.headers['server-timing'];
    if (typeof header !== 'string') continue;
    for (const part of header.split(',')) {
      const [head, dur] = part.trim().split(';dur=');
      // `open;desc="hit"` is printed "open hit": which requests found the draft parsed, which parsed it.
      const name = head?.replace(/;desc="([^"]*)"/, ' $1');
      if (name && dur) phases.set(name, [...(phases.get(name) ?? []), Number(dur)]);
    }
  }
  if (phases.size === 0) return '(no Server-Timing)';
  const inSome = (xs: number[]) => (xs.length < answers.length ? ` (${xs.length} of ${answers.length})` : '');
  return [...phases].map(([name, xs]) => `${name} ${percentile(xs, 50).toFixed(0)}${inSome(xs)}`).join(', ') + ' (ms, medians)';
}
