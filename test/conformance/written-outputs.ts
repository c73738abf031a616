import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { Prng } from '../../src/docx/fixture/prng';
import { CommentAnchorError, DocxError, EditNotFoundError, compareDocx, ingestDocx, openDocx } from '../../src/docx/index';
import { decideAll, storyParagraphs } from '../support/compare-contract';

/**
 * Every kind of file the engine writes, made from the shared corpus, each with the inputs it was
 * made from (what a schema check compares it against): a file's accept-all, reject-all and seeded
 * selective decisions in batches (each batch's draft), its render variant, redline edits and
 * comments as the service writes them; each comparison pair in both orders; and each file's
 * reject-all compared with its accept-all, and with itself as the untracked check does; and each
 * pair again with older marked as PowerTools marks what it processed (an ignorable pt14:Unid on
 * every paragraph and run), a namespace newer does not declare.
 */
export interface WrittenOutput {
  label: string;
  output: Uint8Array;
  inputs: (string | Uint8Array)[];
}

export interface SharedCorpus {
  files: string[];
  pairs: { id: string; older: string; newer: string }[];
  tool: string;
}

export function sharedCorpus(root: string): SharedCorpus | null {
  const dir = path.join(root, 'files');
  const tsv = path.join(root, 'compare', 'PAIRS.tsv');
  if (!existsSync(dir) || !existsSync(tsv)) return null;
  const files = readdirSync(dir).filter((f) => f.endsWith('.docx') && !f.startsWith('.~lock')).sort().map((f) => path.join(dir, f));
  const pairs = readFileSync(tsv, 'utf8').trim().split('\n').slice(1).map((l) => {
    const [id, older, newer] = l.split('\t');
    return { id: id!, older: path.join(root, 'compare', 'files', older!), newer: path.join(root, 'compare', 'files', newer!) };
  });
  return { files, pairs, tool: path.resolve(root, '../tools/ooxml-validate.py') };
}

const DATE = '2025-05-01T00:00:00Z';
const BY = { author: 'Reviewer', date: DATE };

/** The file as the service holds it (ingested), or null when the engine refuses it. */
export function ingested(file: string): Uint8Array | null {
  try {
    return ingestDocx(new Uint8Array(readFileSync(file))).bytes;
  } catch (e) {
    if (e instanceof DocxError) return null;
    throw e;
  }
}

/** Accept-all, reject-all, render variant, and for each seed random verdicts in `batches` batches. */
export function* decisionOutputs(file: string, seeds: readonly number[], batches = 3): Generator<WrittenOutput> {
  const name = path.basename(file, '.docx');
  const bytes = ingested(file);
  if (!bytes) return;
  yield { label: `${name}: accept-all`, output: decideAll(bytes, 'accept'), inputs: [file] };
  yield { label: `${name}: reject-all`, output: decideAll(bytes, 'reject'), inputs: [file] };
  yield { label: `${name}: render variant`, output: openDocx(bytes).renderVariant(), inputs: [file] };
  for (const seed of seeds) {
    const prng = new Prng(seed);
    const doc = openDocx(bytes);
    const ids = doc.changeIds();
    if (ids.length < 2) continue;
    const verdicts = new Map(ids.map((id) => [id, prng.next() < 0.5 ? 'accept' : 'reject'] as const));
    const order = [...ids].sort(() => prng.next() - 0.5);
    for (let b = 0; b < batches; b++) {
      const listed = new Set(doc.changeIds());
      const batch = order.slice(Math.floor((b * order.length) / batches), Math.floor(((b + 1) * order.length) / batches)).filter((id) => listed.has(id));
      if (!batch.length) continue;
      doc.apply({ accept: batch.filter((id) => verdicts.get(id) === 'accept'), reject: batch.filter((id) => verdicts.get(id) === 'reject') });
      yield { label: `${name}: seed ${seed} batch ${b + 1}`, output: doc.toBytes(), inputs: [file] };
    }
  }
}

/** Words of the file's body text to anchor edits and comments on: the nth of each (none when it has no word). */
function someWords(bytes: Uint8Array, nths: readonly number[]): string[] {
  const words = storyParagraphs(decideAll(bytes, 'accept'), { bodyOnly: true })
    .flatMap((p) => p.slice(p.indexOf(': ') + 2).split(/\s+/))
    .filter((w) => /^[\p{L}]{4,}$/u.test(w));
  return words.length ? nths.map((n) => words[Math.min(n, words.length - 1)]!) : [];
}

/**
 * Redline edits (replace, insert, delete; proposed and plain) and comments (add, reply, resolve;
 * on every change, then decided) as the service writes them.
 */
export function* answerOutputs(file: string): Generator<WrittenOutput> {
  const bytes = ingested(file);
  if (!bytes) return;
  const name = path.basename(file, '.docx');
  const [a, b, c] = someWords(bytes, [0, 7, 15]);
  if (a && b && c) yield* wordAnswers(name, file, bytes, [a, b, c]);
  yield* changeComments(name, file, bytes);
}

/** Redline edits and a comment thread anchored on words of the text. */
function* wordAnswers(name: string, file: string, bytes: Uint8Array, [a, b, c]: [string, string, string]): Generator<WrittenOutput> {
  for (const proposed of [false, true]) {
    const doc = openDocx(bytes);
    const edits = [
      { op: 'replace' as const, find: a, text: 'Replaced words', justification: 'why' },
      { op: 'insert' as const, find: b, text: ' inserted', position: 'after' as const },
      { op: 'delete' as const, find: c },
    ];
    try {
      doc.writeRedlines(edits, { ...BY, proposed });
    } catch (e) {
      if (!(e instanceof EditNotFoundError)) throw e;
      continue; // a word the edit cannot find on its own (e.g. it spans runs of a field)
    }
    yield { label: `${name}: redline edits${proposed ? ' (proposed)' : ''}`, output: doc.toBytes(), inputs: [file] };
  }
  const doc = openDocx(bytes);
  try {
    const first = doc.addComment({ find: a }, { ...BY, text: 'A comment' });
    doc.replyToComment(first, { ...BY, text: 'A reply' });
    doc.setCommentResolved(first, true);
    const change = doc.changeIds()[0];
    if (change) doc.addComment({ changeId: change }, { ...BY, text: 'On a change' });
  } catch (e) {
    if (!(e instanceof CommentAnchorError)) throw e;
  }
  yield { label: `${name}: comments`, output: doc.toBytes(), inputs: [file] };
}

const COMMENTED = 24;

/**
 * A comment and a reply on every change (a proposal's justification thread; at most COMMENTED
 * changes), then every change decided each way with them in place.
 */
function* changeComments(name: string, file: string, bytes: Uint8Array): Generator<WrittenOutput> {
  const onChanges = openDocx(bytes);
  const all = onChanges.changeIds();
  // At most COMMENTED changes, spread over the document (each comment rescans the draft).
  const picked = all.length <= COMMENTED ? all : Array.from({ length: COMMENTED }, (_, i) => all[Math.floor((i * all.length) / COMMENTED)]!);
  for (const id of picked) {
    try {
      const first = onChanges.addComment({ changeId: id }, { ...BY, text: `On ${id}` });
      onChanges.replyToComment(first, { ...BY, text: 'A reply' });
    } catch (e) {
      if (!(e instanceof CommentAnchorError)) throw e; // a change with no place in the text
    }
  }
  const commented = onChanges.toBytes();
  yield { label: `${name}: a comment on each change`, output: commented, inputs: [file] };
  const ids = openDocx(commented).changeIds();
  yield { label: `${name}: a comment on each change, then accept-all`, output: openDocx(commented).apply({ accept: ids, reject: [] }).toBytes(), inputs: [file] };
  yield { label: `${name}: a comment on each change, then reject-all`, output: openDocx(commented).apply({ accept: [], reject: ids }).toBytes(), inputs: [file] };
}

/** The file's reject-all compared with its accept-all, and the untracked check of the file against itself. */
export function* selfComparisonOutputs(file: string): Generator<WrittenOutput> {
  const name = path.basename(file, '.docx');
  const bytes = ingested(file);
  if (!bytes) return;
  const older = decideAll(bytes, 'reject');
  const newer = decideAll(bytes, 'accept');
  yield { label: `${name}: compare reject-all -> accept-all`, output: compareDocx(older, newer, { date: DATE }).bytes, inputs: [older, newer] };
  yield {
    label: `${name}: untracked check against itself`,
    output: compareDocx(bytes, bytes, { date: DATE, view: 'rejected', keepNewerRevisions: true }).bytes,
    inputs: [file],
  };
}

/** A comparison pair compared in both orders. */
export function* pairOutputs(pair: SharedCorpus['pairs'][number]): Generator<WrittenOutput> {
  const older = new Uint8Array(readFileSync(pair.older));
  const newer = new Uint8Array(readFileSync(pair.newer));
  yield { label: `${pair.id}: compare older -> newer`, output: compareDocx(older, newer, { date: DATE }).bytes, inputs: [pair.older, pair.newer] };
  yield { label: `${pair.id}: compare newer -> older`, output: compareDocx(newer, older, { date: DATE }).bytes, inputs: [pair.newer, pair.older] };
}

const PT14 = 'http://powertools.codeplex.com/2011';
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** The document as PowerTools leaves it: pt14 declared and ignorable, a pt14:Unid on every paragraph and run of the body. */
export function powerToolsMarked(docx: Uint8Array): Uint8Array {
  const parts = unzipSync(docx);
  let n = 0;
  let xml = strFromU8(parts['word/document.xml']!).replace(/<w:(p|r)(?=[\s>/])/g, (m) => `${m} pt14:Unid="${(++n).toString(16)}"`);
  xml = xml.replace(/<w:document\b[^>]*>/, (tag) => {
    let t = tag.replace(/<w:document/, `<w:document xmlns:pt14="${PT14}"${tag.includes('xmlns:mc=') ? '' : ` xmlns:mc="${MC}"`}`);
    t = /mc:Ignorable="/.test(t) ? t.replace(/mc:Ignorable="/, 'mc:Ignorable="pt14 ') : t.replace(/\/?>$/, (end) => ` mc:Ignorable="pt14"${end}`);
    return t;
  });
  parts['word/document.xml'] = strToU8(xml);
  return zipSync(parts);
}

/** A comparison pair with older marked by PowerTools (pt14), newer not. */
export function* markedPairOutputs(pair: SharedCorpus['pairs'][number]): Generator<WrittenOutput> {
  const older = powerToolsMarked(new Uint8Array(readFileSync(pair.older)));
  const newer = new Uint8Array(readFileSync(pair.newer));
  yield { label: `${pair.id}: compare pt14-marked older -> newer`, output: compareDocx(older, newer, { date: DATE }).bytes, inputs: [older, pair.newer] };
}
