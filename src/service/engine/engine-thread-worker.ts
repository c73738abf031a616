/**
 * An engine thread's side: runs the engine on what the service posts (a comparison, an upload's
 * ingest, the warm-up) and posts the result back (bytes transferred rather than copied). An
 * engine refusal goes back as its code, message and limit, so the service answers the same
 * problem as in-process.
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import zlib from 'node:zlib';
import { applyDecisions, compareDocx, DocxError, ingestDocx, listRevisions, type CompareDifference, type CompareOptions, type OpenOptions, type ReadLimits, type ZipCodec } from '../../docx';
import { buildBenchmarkContract } from '../../docx/fixture';
import { checkDraft } from '../../docx/checks/draft-checks';
import { nativeZipCodec } from './native-zip-codec';
import { epochNow, type ChecksJob, type CompareJob, type EngineJob, type EngineJobAnswer, type IngestJob, type WarmJob } from './engine-threads';

const port = parentPort ?? ((): never => { throw new Error('engine-thread-worker runs only as a worker thread'); })();

/**
 * The thread answering requests comes first: on Linux a thread has its own nice value, so this
 * thread lowers its own (the main thread's stays), and a busy engine thread yields the CPU to
 * health checks and small requests whenever they need it. Elsewhere it keeps the process's.
 */
function lowerOwnPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, ENGINE_NICE);
  } catch {
    // Not Linux, or not allowed: the thread runs at the process's priority.
  }
}
const ENGINE_NICE = 10;
lowerOwnPriority();

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
  ingestDocx(contract, { limits: open.limits, codec: nativeZipCodec });
  // The checks' path too (issue 35): their first ask then runs on compiled code.
  checkDraft(contract, { limits: open.limits, codec: nativeZipCodec });
}

/** Runs a comparison or an ingest: the bytes to send back and the differences (none for an ingest). */
function runJob(job: CompareJob | IngestJob): { bytes: Uint8Array; differences: CompareDifference[]; engineMs: number; ingestMs: number } {
  const startedAt = epochNow();
  if (job.kind === 'ingest') {
    const bytes = ingestDocx(job.bytes, { limits: job.limits as Partial<ReadLimits>, codec: nativeZipCodec, work: job.work }).bytes;
    return { bytes, differences: [], engineMs: epochNow() - startedAt, ingestMs: 0 };
  }
  const open: OpenOptions = { limits: job.limits as Partial<ReadLimits>, codec: job.draft ? nativeZipCodec : storingCodec };
  const options: CompareOptions = { ...job.options, open };
  const result = compareDocx(job.older, job.newer, options);
  const engineDone = epochNow();
  // A draft's bytes are ingested here too (unique ids for every revision, the comparison's and
  // newer's own); a check needs only the differences.
  const bytes = job.draft ? ingestDocx(result.bytes, open).bytes : new Uint8Array(0);
  return { bytes, differences: result.differences, engineMs: engineDone - startedAt, ingestMs: epochNow() - engineDone };
}

function run(job: CompareJob | IngestJob | ChecksJob): void {
  const startedAt = epochNow();
  let answer: EngineJobAnswer;
  try {
    if (job.kind === 'checks') {
      const checks = checkDraft(job.bytes, { limits: job.limits as Partial<ReadLimits>, codec: nativeZipCodec });
      const engineMs = epochNow() - startedAt;
      port.postMessage({ id: job.id, ok: true, bytes: new Uint8Array(0), differences: [], checks, timing: { startedAt, engineMs, ingestMs: 0, postedAt: epochNow(), jobsBefore: jobsRun } } satisfies EngineJobAnswer);
      return;
    }
    const { bytes, differences, engineMs, ingestMs } = runJob(job);
    const postedAt = epochNow();
    answer = { id: job.id, ok: true, bytes, differences, timing: { startedAt, engineMs, ingestMs, postedAt, jobsBefore: jobsRun } };
    port.postMessage(answer, [bytes.buffer as ArrayBuffer]);
    return;
  } catch (error) {
    answer = error instanceof DocxError
      ? { id: job.id, ok: false, docx: { code: error.code, message: error.message, ...(error.limit ? { limit: error.limit } : {}) } }
      : { id: job.id, ok: false, failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  } finally {
    jobsRun++;
  }
  port.postMessage(answer);
}

port.on('message', (job: EngineJob) => {
  if (job.kind !== 'warm') {
    run(job);
    return;
  }
  try {
    warmUp(job);
  } catch {
    // A warm-up that fails only means the first job compiles the engine as it runs.
  }
  jobsRun++;
  port.postMessage({ id: job.id, warmed: true } satisfies EngineJobAnswer);
});
