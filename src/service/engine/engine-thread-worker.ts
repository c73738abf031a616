/**
 * An engine thread's side: runs the engine on what the service posts (a comparison, an upload's
 * ingest, a view's first reading, a search, a decision report's PDF, the warm-up) and posts the result back (bytes transferred rather than copied). An
 * engine refusal goes back as its code, message and limit, so the service answers the same
 * problem as in-process.
 */
import { sideBySideViews } from '../../docx/compare/paragraph-map';
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import zlib from 'node:zlib';
import {
  applyDecisions, checkWrittenWork, compareDocx, DocxError, EditAnchorError, EditNotFoundError, ingestDocx, listRevisions, openDocx,
  type CompareDifference, type CompareOptions, type OpenOptions, type ReadLimits, type ZipCodec,
} from '../../docx';
import { buildBenchmarkContract } from '../../docx/fixture';
import { readView, searchTexts, unpackTexts } from '../reading/reading-work';
import { nativeZipCodec } from './native-zip-codec';
import { addThreadsToEdits } from '../review/comment-ops';
import { readingsOf } from '../review/baselines';
import { epochNow, type CompareCounts, type CompareJob, type EngineJob, type EngineJobAnswer, type IngestJob, type JobValues, type RedlineJob, type RedlineWritten, type ValueJob, type WarmJob } from './engine-threads';
import { checkDraft } from '../../docx/checks/draft-checks';

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
/** How many times the warm-up runs the checks on it (see warmUp). */
const CHECKS_WARM_RUNS = 3;

let jobsRun = 0;

function warmUp(job: WarmJob): void {
  const open: OpenOptions = { limits: job.limits as Partial<ReadLimits>, codec: storingCodec };
  const contract = buildBenchmarkContract({ pages: WARM_PAGES, revisions: WARM_PAGES * 10 });
  const accepted = applyDecisions(contract, { accept: listRevisions(contract).map((r) => r.change_id), reject: [] });
  // The paths a check takes: a version with untracked edits everywhere, and an unchanged one.
  compareDocx(accepted, contract, { view: 'rejected', open });
  compareDocx(contract, contract, { view: 'rejected', open });
  ingestDocx(contract, { limits: open.limits, codec: nativeZipCodec });
  // The checks' path too (issue 35): their first ask then runs on compiled code. V8 keeps optimising the
  // word reading and term scan over the first runs: a 100-page draft's checks took 931-960 ms of CPU after
  // one run of these, 708-779 ms after three (about 550 once warm), for some 300 ms more of this warm-up.
  for (let run = 0; run < CHECKS_WARM_RUNS; run++) checkDraft(contract, { limits: open.limits, codec: nativeZipCodec });
}

/** Runs a comparison or an ingest: the bytes to send back and the differences (none for an ingest). */
function runJob(job: CompareJob | IngestJob): { bytes: Uint8Array; differences: CompareDifference[]; counts: CompareCounts | null; engineMs: number; ingestMs: number } {
  const startedAt = epochNow();
  if (job.kind === 'ingest') {
    const bytes = ingestDocx(job.bytes, { limits: job.limits as Partial<ReadLimits>, codec: nativeZipCodec, work: job.work }).bytes;
    return { bytes, differences: [], counts: null, engineMs: epochNow() - startedAt, ingestMs: 0 };
  }
  const open: OpenOptions = { limits: job.limits as Partial<ReadLimits>, codec: job.draft ? nativeZipCodec : storingCodec };
  const options: CompareOptions = { ...job.options, open };
  const result = compareDocx(job.older, job.newer, options);
  const engineDone = epochNow();
  // A draft's bytes are ingested here too (unique ids for every revision, the comparison's and
  // newer's own); a check needs only the differences. A draft past the upload caps is refused
  // (it could be downloaded but never uploaded again).
  const bytes = job.draft ? ingestDocx(result.bytes, { ...open, work: job.work }).bytes : new Uint8Array(0);
  return { bytes, differences: result.differences, counts: { entries: result.entries, pending: result.pending }, engineMs: engineDone - startedAt, ingestMs: epochNow() - engineDone };
}

/** Runs a job answering a value; the PDF renderer (pdfkit and its fonts) is loaded on the first report only. */
async function valueOf(job: ValueJob): Promise<JobValues[ValueJob['kind']]> {
  switch (job.kind) {
    case 'read':
      return readView(job.bytes, job.view, { limits: job.limits as Partial<ReadLimits>, codec: nativeZipCodec });
    case 'search':
      return searchTexts(unpackTexts(job.texts), job.pattern, job.maxHits, job.timeLimitMs);
    case 'report_pdf': {
      const { reportPdf } = await import('../report/report-pdf');
      return new Uint8Array(await reportPdf(job.report));
    }
    case 'checks':
      return checkDraft(job.bytes, { limits: job.limits as Partial<ReadLimits>, codec: nativeZipCodec });
    case 'side_by_side':
      return sideBySideViews(job.bytes);
  }
}

async function runValue(job: ValueJob): Promise<void> {
  let answer: EngineJobAnswer;
  try {
    const value = await valueOf(job);
    answer = { id: job.id, ok: true, value };
    port.postMessage(answer, transferable(value));
    return;
  } catch (error) {
    answer = failed(job.id, error);
  } finally {
    jobsRun++;
  }
  port.postMessage(answer);
}

/** The buffers of a value that are its alone, handed over rather than copied. */
function transferable(value: JobValues[ValueJob['kind']]): ArrayBuffer[] {
  const views = value instanceof Uint8Array ? [value]
    : 'chunks' in value ? [...value.chunks, value.texts.units, value.texts.ends]
      : 'redline' in value ? [value.redline, value.older] : [];
  return views.filter((v) => v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer).map((v) => v.buffer as ArrayBuffer);
}

function failed(id: number, error: unknown): EngineJobAnswer {
  return error instanceof DocxError
    ? { id, ok: false, docx: { code: error.code, message: error.message, ...(error.limit ? { limit: error.limit } : {}) } }
    : { id, ok: false, failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/**
 * Writes a batch of redline edits, then what the answer needs: the content (held to the upload
 * caps), its revisions, (full answers) its render variant, and the track's readings of it.
 */
function writeBatch(job: RedlineJob): RedlineWritten {
  const startedAt = epochNow();
  const doc = openDocx(job.bytes, { limits: job.limits as Partial<ReadLimits>, codec: nativeZipCodec });
  const changes = doc.writeRedlines(job.edits, job.by);
  if (job.threads) addThreadsToEdits(doc, changes, job.threads, job.by);
  const bytes = doc.toBytes();
  checkWrittenWork(bytes, job.work, nativeZipCodec);
  const revisions = doc.revisions();
  const readings = readingsOf(doc);
  let render: Uint8Array | null = null;
  if (job.render) {
    try {
      render = doc.renderVariant();
    } catch {
      // As in process: a render variant that cannot be built is answered as null (the content is shown instead).
    }
  }
  return { bytes, render, revisions, changes, readings, engineMs: epochNow() - startedAt };
}

/** An edit refusal as it can cross to the service's thread; null for any other error. */
function refusalOf(id: number, error: unknown): EngineJobAnswer | null {
  if (error instanceof EditAnchorError) {
    const { problem, editIndex, blockId, message, candidates, blockText } = error;
    return { id, ok: false, refusal: { kind: 'anchor', problem, editIndex, blockId, message, candidates, blockText } };
  }
  if (error instanceof EditNotFoundError) return { id, ok: false, refusal: { kind: 'not_found', editIndex: error.editIndex } };
  return null;
}

function runRedline(job: RedlineJob): void {
  let answer: EngineJobAnswer;
  try {
    const written = writeBatch(job);
    answer = { id: job.id, ok: true, written };
    port.postMessage(answer, [written.bytes.buffer as ArrayBuffer, ...(written.render ? [written.render.buffer as ArrayBuffer] : [])]);
    return;
  } catch (error) {
    answer = refusalOf(job.id, error) ?? failed(job.id, error);
  } finally {
    jobsRun++;
  }
  port.postMessage(answer);
}

function run(job: CompareJob | IngestJob): void {
  const startedAt = epochNow();
  let answer: EngineJobAnswer;
  try {
    const { bytes, differences, counts, engineMs, ingestMs } = runJob(job);
    const postedAt = epochNow();
    answer = { id: job.id, ok: true, bytes, differences, counts, timing: { startedAt, engineMs, ingestMs, postedAt, jobsBefore: jobsRun } };
    port.postMessage(answer, [bytes.buffer as ArrayBuffer]);
    return;
  } catch (error) {
    answer = failed(job.id, error);
  } finally {
    jobsRun++;
  }
  port.postMessage(answer);
}

port.on('message', (job: EngineJob) => {
  if (job.kind === 'redline') {
    runRedline(job);
    return;
  }
  if (job.kind === 'compare' || job.kind === 'ingest') {
    run(job);
    return;
  }
  if (job.kind !== 'warm') {
    void runValue(job);
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
