import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalS3 } from '../../src/service/cluster/local-s3';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * The local S3 server (s3rver) in a process of its own, for tests that also do long
 * synchronous work (the engine): in the test's own process a busy event loop would stall
 * the store, every instance's readiness would fail, and the load balancer would take them
 * all out, exactly as it should for a real store that stops answering.
 */
export async function startLocalS3Process(directory: string): Promise<LocalS3> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'local-s3-main.ts'), directory], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise<Omit<LocalS3, 'close'>>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Omit<LocalS3, 'close'>);
    });
    child.once('exit', (code) => reject(new Error(`the local S3 process exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ...ready,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
