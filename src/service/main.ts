import { createService } from './app';
import { loadConfig } from './config';
import { shutDownGracefully } from './lifecycle/graceful-shutdown';
import { DEMO_EMAIL, seedDemo } from './seed';

/** `npm start`: one process serving the SPA at / and the API under /api. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    // A configuration that cannot run says why in one message, without a stack.
    process.stderr.write(`Redline cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const service = await createService(config);
  if (config.seedDemo) await seedDemo(service.ctx);
  await service.app.listen({ host: config.host, port: config.port });
  service.ctx.untracked.warm();

  const mail = !service.ctx.outbox ? 'Sign-in codes are sent by SMTP.'
    : config.devMailbox ? `Sign-in codes are printed in this console (development outbox), and readable at ${config.publicUrl}/api/dev/mailbox?to=${DEMO_EMAIL}`
      : 'Sign-in codes are printed in this console (development outbox; DEV_OUTBOX=false: no mailbox route).';
  process.stdout.write([
    '',
    `  Redline is running at ${config.publicUrl}`,
    `  Sign in as ${DEMO_EMAIL}: enter the address, press "Send code", then enter the 8-digit code.`,
    `  ${mail}`,
    `  API: ${config.publicUrl}/api  (OpenAPI: ${config.publicUrl}/api/openapi.json)`,
    '',
  ].join('\n') + '\n');

  // The first SIGTERM or SIGINT drains and stops gracefully; a second one stops at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      service.ctx.log.warn(`${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    void shutDownGracefully(service, signal, { graceMs: config.shutdownGraceMs, drainDelayMs: config.shutdownDrainMs, log: service.ctx.log })
      .then((code) => process.exit(code), (error: unknown) => {
        service.ctx.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Redline failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
