import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findHaproxy, parseBackendStates } from './haproxy';
import { haproxyConfig } from './haproxy-config';

const options = {
  frontend: { host: '127.0.0.1', port: 18787 },
  stats: { host: '127.0.0.1', port: 18404 },
  backends: [1, 2, 3].map((i) => ({ name: `instance-${i}`, host: '127.0.0.1', port: 18787 + i })),
  checkIntervalMs: 1000, fall: 3, rise: 2,
};

describe('the HAProxy configuration', () => {
  const text = haproxyConfig(options);

  it('checks readiness, retries and redispatches, and overwrites X-Forwarded-For', () => {
    expect(text).toContain('http-check send meth GET uri /api/health/ready');
    expect(text).toContain('http-check expect status 200');
    expect(text).toContain('retry-on conn-failure empty-response response-timeout');
    expect(text).toContain('option redispatch 1');
    expect(text).toContain('http-request set-header X-Forwarded-For %[src]');
    expect(text).toMatch(/default-server inter 1000ms .* fall 3 rise 2/);
    for (const i of [1, 2, 3]) {
      expect(text).toContain(`server instance-${i} 127.0.0.1:${18787 + i} check`);
      expect(text).toContain(`server fallback-${i} 127.0.0.1:${18787 + i} backup`);
    }
    // A draining instance must finish what it has: nothing cuts sessions when it is marked down.
    expect(text).not.toContain('shutdown-sessions');
    expect(text).toContain('bind 127.0.0.1:18404');
  });

  it.skipIf(!findHaproxy())('is valid for the installed HAProxy (haproxy -c)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'redline-haproxy-'));
    try {
      writeFileSync(path.join(dir, 'haproxy.cfg'), text);
      const checked = spawnSync(findHaproxy()!, ['-c', '-f', path.join(dir, 'haproxy.cfg')], { encoding: 'utf8' });
      expect(checked.status, checked.stderr + checked.stdout).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads server states from the stats CSV, leaving out the fail-open backups', () => {
    const csv = [
      '# pxname,svname,qcur,qmax,scur,smax,slim,stot,bin,bout,dreq,dresp,ereq,econ,eresp,wretr,wredis,status,weight',
      'redline,FRONTEND,,,0,1,4096,2,0,0,0,0,0,,,,,OPEN,',
      'instances,instance-1,0,0,0,1,,5,0,0,,0,,0,0,0,0,UP,1',
      'instances,instance-2,0,0,0,1,,5,0,0,,0,,0,0,0,0,DOWN,1',
      'instances,instance-3,0,0,0,1,,5,0,0,,0,,0,0,0,0,UP 1/2,1',
      'instances,fallback-1,0,0,0,0,,0,0,0,,0,,0,0,0,0,no check,1',
      'instances,BACKEND,0,0,0,1,410,15,0,0,0,0,,0,0,0,0,UP,2',
    ].join('\n');
    expect(parseBackendStates(csv, 'instances')).toEqual({ 'instance-1': 'UP', 'instance-2': 'DOWN', 'instance-3': 'UP 1/2' });
  });
});
