import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../test/support/test-service';
import { createSmtpMailer } from './smtp-mailer';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
async function startSink(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function waitFor<T>(probe: () => T | undefined, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('timed out waiting for mail');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('SMTP mail', () => {
  let sink: Awaited<ReturnType<typeof startSink>>;
  let t: TestService;

  beforeAll(async () => {
    sink = await startSink();
    t = await startTestService({ smtpUrl: sink.url, mailFrom: 'Redline <no-reply@redline.test>' },
      { mailer: createSmtpMailer(sink.url, 'Redline <no-reply@redline.test>') });
  });
  afterAll(async () => {
    await t.destroy();
    await sink.close();
  });

  it('sends the sign-in code through a real SMTP server, and the code signs in', async () => {
    await t.ctx.db.transaction(async (tx) => {
      await tx.query("INSERT INTO users (id, email, display_name) VALUES ('00000000-0000-4000-8000-00000000000a', 'smtp@firm.example', 'S')");
      await tx.query("INSERT INTO orgs (id, name) VALUES ('00000000-0000-4000-8000-00000000000b', 'SMTP LLP')");
      await tx.query("INSERT INTO memberships (org_id, user_id, role) VALUES ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000a', 'owner')");
    });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/request-code', payload: { identifier: 'smtp@firm.example' } });
    expect(res.statusCode).toBe(202);
    const mail = await waitFor(() => sink.received.find((m) => m.to.includes('smtp@firm.example')));
    expect(mail.from).toBe('no-reply@redline.test');
    expect(mail.raw).toMatch(/Subject: Your Redline sign-in code/);
    const code = /sign-in code is (\d{4}) (\d{4})/.exec(mail.raw.replace(/=\r?\n/g, ''));
    expect(code).not.toBeNull();
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { identifier: 'smtp@firm.example', code: `${code![1]}${code![2]}` } });
    expect(verified.statusCode).toBe(200);
  });

  it('has no development mailbox route outside outbox mode', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox?to=smtp%40firm.example' });
    expect(res.statusCode).toBe(404);
    expect(t.routes.some((r) => r.includes('/api/dev/mailbox'))).toBe(false);
  });
});
