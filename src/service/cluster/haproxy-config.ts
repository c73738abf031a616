/** One service instance behind the load balancer. */
export interface Backend {
  /** HAProxy's server name; answered to clients in the X-Redline-Instance header. */
  name: string;
  host: string;
  port: number;
}

export interface HaproxyConfigOptions {
  /** Where people and clients connect. */
  frontend: { host: string; port: number };
  /** The stats page (HTML, and CSV at `/;csv`); kept on loopback. */
  stats: { host: string; port: number };
  backends: readonly Backend[];
  /** Health check interval; a backend is marked down after `fall` failed checks and up after `rise` good ones. */
  checkIntervalMs: number;
  fall: number;
  rise: number;
}

/** Response header naming the instance that answered, so tests and people can see the rotation. */
export const SERVED_BY_HEADER = 'x-redline-instance';

/** The readiness route HAProxy checks (the database and the blob store answer; not draining). */
export const READINESS_PATH = '/api/health/ready';

/**
 * An HAProxy configuration for Redline's instances, production-shaped:
 * - health checks on the readiness route, so an instance that is draining for shutdown or
 *   has lost its database stops getting new requests;
 * - `retry-on conn-failure empty-response response-timeout` with `option redispatch 1`: a
 *   request that found an instance dead (refused, reset before any answer, silent past the
 *   server timeout) is sent again to another instance. Requests are buffered so a retry can
 *   resend them; a batch re-sent after its first send was applied answers 409 already_decided
 *   (or, with an Idempotency-Key, the first answer), never a second application;
 * - `option http-server-close`: each request gets its own connection to an instance, so a
 *   closed listener (an instance stopping) is a refused connection that is retried at once,
 *   never a kept-alive connection that dies under a request;
 * - X-Forwarded-For overwritten with the client address (instances run with TRUST_PROXY=true);
 * - no `on-marked-down shutdown-sessions`: a draining instance fails its checks on purpose and
 *   must still finish the requests it has;
 * - fail open: every instance is listed a second time as an unchecked backup (`fallback-N`),
 *   used only while no checked instance is up. Readiness failing everywhere at once means a
 *   shared dependency (the database, the blob store) is slow or down; then each instance
 *   still answers what it can (sessions, reads it has cached) and a clean 503 problem for
 *   the rest, instead of HAProxy refusing everything. A dead instance among the backups is a
 *   refused connection, retried on the next.
 */
export function haproxyConfig(options: HaproxyConfigOptions): string {
  const ms = (n: number) => `${Math.max(1, Math.round(n))}ms`;
  const lines = [
    '# Written by `npm run start:cluster` (src/service/cluster/haproxy-config.ts); regenerated at every start.',
    'global',
    '  log stdout format raw local0 notice',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  log global',
    '  option dontlognull',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-request 15s',
    '  timeout http-keep-alive 10s',
    '  timeout queue 10s',
    // Readiness gives up on a dependency after one second and answers 503; leave it time to say so.
    '  timeout check 2s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    '  option http-buffer-request',
    '  option http-server-close',
    '',
    'frontend redline',
    `  bind ${options.frontend.host}:${options.frontend.port}`,
    '  http-request set-header X-Forwarded-For %[src]',
    '  http-request set-header X-Forwarded-Proto http',
    '  http-request set-header X-Forwarded-Host %[req.hdr(host)]',
    '  default_backend instances',
    '',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk',
    `  http-check send meth GET uri ${READINESS_PATH}`,
    '  http-check expect status 200',
    `  default-server inter ${ms(options.checkIntervalMs)} fastinter ${ms(options.checkIntervalMs / 2)} downinter ${ms(options.checkIntervalMs)} fall ${options.fall} rise ${options.rise}`,
    `  http-response set-header X-Redline-Instance %[srv_name]`,
    ...options.backends.map((b) => `  server ${b.name} ${b.host}:${b.port} check`),
    '  option allbackups',
    ...options.backends.map((b, i) => `  server fallback-${i + 1} ${b.host}:${b.port} backup`),
    '',
    'listen stats',
    `  bind ${options.stats.host}:${options.stats.port}`,
    '  stats enable',
    '  stats uri /',
    '  stats refresh 5s',
    '  stats show-legends',
    '',
  ];
  return lines.join('\n');
}
