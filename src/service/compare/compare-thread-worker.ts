/**
 * The comparison thread's side: runs the engine's compareDocx on what the service posts and
 * posts the result back (the redline's bytes, ingested, transferred rather than copied). An engine refusal goes
 * back as its code and message, so the service answers the same problem as in-process.
 */
import { parentPort } from 'node:worker_threads';
import { compareDocx, DocxError, ingestDocx, type CompareOptions, type OpenOptions, type ReadLimits } from '../../docx';
import { nativeZipCodec } from '../engine/native-zip-codec';
import type { CompareJob, CompareJobAnswer } from './compare-thread';

const port = parentPort;
if (!port) throw new Error('compare-thread-worker runs only as a worker thread');

port.on('message', (job: CompareJob) => {
  let answer: CompareJobAnswer;
  try {
    const open: OpenOptions = { limits: job.limits as Partial<ReadLimits>, codec: nativeZipCodec };
    const options: CompareOptions = { ...job.options, open };
    const result = compareDocx(job.older, job.newer, options);
    // A draft's bytes are ingested here too (unique ids for every revision, the comparison's and
    // newer's own); a check needs only the differences.
    const bytes = job.draft ? ingestDocx(result.bytes, open).bytes : new Uint8Array(0);
    answer = { id: job.id, ok: true, bytes, differences: result.differences };
    port.postMessage(answer, [bytes.buffer as ArrayBuffer]);
    return;
  } catch (error) {
    answer = error instanceof DocxError
      ? { id: job.id, ok: false, docx: { code: error.code, message: error.message } }
      : { id: job.id, ok: false, failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  port.postMessage(answer);
});
