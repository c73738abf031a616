/**
 * The probe behind thread-stop-gate.test.ts, run as its own process (a failure aborts the process):
 * starts worker threads that make zlib objects in a loop, the ways the engine and PDFKit do, and
 * terminates each after a random moment, for the given seconds. Prints how many it terminated.
 * `gated`: through ThreadStopGate, as the engine pool does; `bare`: Worker.terminate() alone.
 */
import { Worker } from 'node:worker_threads';
import { ThreadStopGate } from '../../src/service/engine/thread-stop-gate';

const [mode = 'gated', secondsArg = '5'] = process.argv.slice(2);
const seconds = Number(secondsArg);
const gateModule = new URL('../../src/service/engine/thread-stop-gate.ts', import.meta.url).href;

// Plain JavaScript in the worker (no loader needed): the gate module is imported through tsx's API.
const work = `
const zlib = require('node:zlib');
require('node:worker_threads').parentPort.postMessage('looping');
const data = zlib.deflateRawSync(Buffer.alloc(4000, 97));
for (let i = 0; ; i++) {
  try {
    zlib.inflateRawSync(data, { chunkSize: 4096 });
    zlib.deflateSync(Buffer.alloc(500, i & 255));
    if (i % 16 === 0) new zlib.Inflate().close();
  } catch (error) {
    if (error && error.name === 'ThreadStoppingError') break;
    throw error;
  }
}
`;
const boot = mode === 'gated'
  ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(gateModule)}); })
       .then(({ gateThisThread }) => gateThisThread()).then(() => { ${work} })`
  : `Promise.resolve().then(() => { ${work} })`;

let terminated = 0;
const until = Date.now() + seconds * 1000;
/** One lane: a worker at a time, started, let run a random moment into its loop, stopped. */
async function lane(): Promise<void> {
  while (Date.now() < until) {
    const gate = new ThreadStopGate();
    const worker = new Worker(boot, { eval: true, workerData: { stopGate: gate.shared } });
    worker.on('error', (error) => {
      console.error(error);
      process.exit(2);
    });
    await new Promise((resolve) => worker.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    if (mode === 'gated') await gate.close();
    await worker.terminate();
    terminated++;
    if (process.env.PROBE_TRACE) console.log(terminated);
  }
}
// Four at once: a gated worker takes a few hundred ms to load the gate through tsx.
await Promise.all([lane(), lane(), lane(), lane()]);
console.log(`terminated ${terminated}`);
