import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Response header naming the instance that answered (`host:port`), so tests and people can see the rotation. */
export const SERVED_BY_HEADER = 'x-redline-instance';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

/**
 * A tiny HTTP reverse proxy that hands each request to the next backend in turn. For
 * running a local cluster only: no TLS, no health checks, no retries.
 *
 * It is the edge, so it overwrites X-Forwarded-For with the address the request came
 * from (a client cannot smuggle in another address), and the instances behind it trust
 * that header (TRUST_PROXY=true): per-IP rate limits then see the real client.
 */
export async function startRoundRobinProxy(backends: readonly string[], options: { port?: number; host?: string } = {}): Promise<RoundRobinProxy> {
  if (backends.length === 0) throw new Error('the proxy needs at least one backend');
  const targets = backends.map((b) => new URL(b));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;

  const server = http.createServer((request, response) => {
    const target = targets[next++ % targets.length]!;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    headers['x-forwarded-for'] = request.socket.remoteAddress ?? '';
    headers['x-forwarded-proto'] = 'http';
    if (request.headers.host) headers['x-forwarded-host'] = request.headers.host;
    const upstream = http.request({
      agent, host: target.hostname, port: target.port, method: request.method, path: request.url, headers,
    }, (answer) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      out[SERVED_BY_HEADER] = target.host;
      response.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      if (response.headersSent) {
        response.destroy(error);
        return;
      }
      response.writeHead(502, { 'content-type': 'application/problem+json', [SERVED_BY_HEADER]: target.host });
      response.end(JSON.stringify({
        type: 'about:blank', title: 'Bad Gateway', status: 502, code: 'service_unavailable',
        detail: `The instance at ${target.host} did not answer (${(error as NodeJS.ErrnoException).code ?? error.message}).`,
      }));
    });
    request.on('aborted', () => upstream.destroy());
    request.pipe(upstream);
  });
  server.keepAliveTimeout = 30_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
