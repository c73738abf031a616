/**
 * The comparison thread's side: runs the engine's compareDocx on what the service posts and
 * posts the result back (the redline's bytes, ingested, transferred rather than copied). An engine refusal goes
 * back as its code and message, so the service answers the same problem as in-process.
 */
import { parentPort } from 'node:worker_threads';
import zlib from 'node:zlib';
import { applyDecisions, compareDocx, DocxError, ingestDocx, listRevisions, type CompareOptions, type OpenOptions, type ReadLimits, type ZipCodec } from '../../docx';
import { buildBenchmarkContract } from '../../docx/fixture';
import { nativeZipCodec } from '../engine/native-zip-codec';
import { epochNow, type CompareJob, type CompareJobAnswer, type WarmJob } from './compare-thread';

const port = parentPort ?? ((): never => { throw new Error('compare-thread-worker runs only as a worker thread'); })();

/**
 * For a check (no draft), the engine still writes its redline, which is thrown away: its parts are
 * stored (deflate level 0) rather than compressed, which saves about an eighth of a 300-page
 * check's CPU. The bytes stay a valid package; only their size differs.
 */
const storingCodec: ZipCodec = { ...nativeZipCodec, deflateRaw: (data) => zlib.deflateRawSync(data, { level: 0 }) };

/** The warm-up's document: a 20-page contract with every kind of revision, small enough to take a few hundred ms. */
const WARM_PAGES = 20;

let jobsRun = 0;

function warmUp(job: WarmJob): void {
  const open: OpenOptions = { limits: job.limits as Partial<ReadLimits>, codec: storingCodec };
  const contract = buildBenchmarkContract({ pages: WARM_PAGES, revisions: WARM_PAGES * 10 });
  const accepted = applyDecisions(contract, { accept: listRevisions(contract).map((r) => r.change_id), reject: [] });
  // The paths a check takes: a version with untracked edits everywhere, and an unchanged one.
  compareDocx(accepted, contract, { view: 'rejected', open });
  compareDocx(contract, contract, { view: 'rejected', open });
}

function runCompare(job: CompareJob): void {
  const startedAt = epochNow();
  let answer: CompareJobAnswer;
  try {
    const open: OpenOptions = { limits: job.limits as Partial<ReadLimits>, codec: job.draft ? nativeZipCodec : storingCodec };
    const options: CompareOptions = { ...job.options, open };
    const result = compareDocx(job.older, job.newer, options);
    const engineDone = epochNow();
    // A draft's bytes are ingested here too (unique ids for every revision, the comparison's and
    // newer's own); a check needs only the differences.
    const bytes = job.draft ? ingestDocx(result.bytes, open).bytes : new Uint8Array(0);
    const postedAt = epochNow();
    const timing = { startedAt, engineMs: engineDone - startedAt, ingestMs: postedAt - engineDone, postedAt, jobsBefore: jobsRun };
    answer = { id: job.id, ok: true, bytes, differences: result.differences, timing };
    port.postMessage(answer, [bytes.buffer as ArrayBuffer]);
    return;
  } catch (error) {
    answer = error instanceof DocxError
      ? { id: job.id, ok: false, docx: { code: error.code, message: error.message } }
      : { id: job.id, ok: false, failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  } finally {
    jobsRun++;
  }
  port.postMessage(answer);
}

port.on('message', (job: CompareJob | WarmJob) => {
  if (job.kind === 'compare') {
    runCompare(job);
    return;
  }
  try {
    warmUp(job);
  } catch {
    // A warm-up that fails only means the first check compiles the engine as it runs.
  }
  jobsRun++;
  port.postMessage({ id: job.id, warmed: true } satisfies CompareJobAnswer);
});
