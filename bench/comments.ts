/**
 * Comments on the 300-page benchmark draft (2,923 changes): what reading and writing Word
 * comments costs the engine, and what keeping comments consistent adds to a decision.
 * Prints figures; never fails.
 *
 *   node --expose-gc --import tsx bench/comments.ts
 *
 * Figures (medians): list the comments of a draft holding 200 of them; add a comment on a change,
 * on a text anchor, a reply, a resolve (each on an open draft, then written to bytes); a 50-change
 * apply with and without 200 comments in the draft (the difference is the comment reconciliation);
 * the clean copy (accept all + remove every comment, written).
 */
import { buildBenchmarkContract } from '../src/docx/fixture';
import { ingestDocx, openDocx } from '../src/docx/index';
import { nativeZipCodec } from '../src/service/engine/native-zip-codec';

const gc = (globalThis as { gc?: () => void }).gc;
const by = { author: 'Bench Counsel', date: '2026-01-01T00:00:00Z' };
const codec = nativeZipCodec;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(runs: number, setup: () => void, f: () => void): number {
  const out: number[] = [];
  for (let i = 0; i <= runs; i++) {
    setup();
    gc?.();
    const t = performance.now();
    f();
    if (i > 0) out.push(performance.now() - t);
  }
  return median(out);
}

const plain = ingestDocx(buildBenchmarkContract(), { codec }).bytes;
// The same draft with 200 comments on changes (20 of them with a reply).
const seeded = openDocx(plain, { codec });
const ids = seeded.changeIds();
for (let i = 0; i < 200; i++) {
  const id = seeded.addComment({ changeId: ids[(i * 13) % ids.length]! }, { ...by, text: `Comment ${i}` });
  if (i % 10 === 0) seeded.replyToComment(id, { ...by, text: `Reply ${i}` });
}
const withComments = seeded.toBytes();
const batch = ids.filter((_, i) => i % 58 === 1).slice(0, 50);

let doc = openDocx(withComments, { codec });
const rows: [string, number][] = [];
rows.push(['list 220 comments (threads, covered changes)', time(7, () => (doc = openDocx(withComments, { codec })), () => void doc.comments())]);
rows.push(['add a comment on a change + write', time(7, () => (doc = openDocx(withComments, { codec })), () => {
  doc.addComment({ changeId: ids[1234]! }, { ...by, text: 'x' });
  doc.toBytes();
})]);
rows.push(['add a comment on a text anchor + write', time(7, () => (doc = openDocx(withComments, { codec })), () => {
  doc.addComment({ find: 'Customer', occurrence: 500 }, { ...by, text: 'x' });
  doc.toBytes();
})]);
rows.push(['reply + write', time(7, () => (doc = openDocx(withComments, { codec })), () => {
  doc.replyToComment('150', { ...by, text: 'x' });
  doc.toBytes();
})]);
rows.push(['resolve + write', time(7, () => (doc = openDocx(withComments, { codec })), () => {
  doc.setCommentResolved('150', true);
  doc.toBytes();
})]);
rows.push(['50-change apply + write, no comments', time(7, () => (doc = openDocx(plain, { codec })), () => void doc.apply({ accept: batch, reject: [] }).toBytes())]);
rows.push(['50-change apply + write, 220 comments', time(7, () => (doc = openDocx(withComments, { codec })), () => void doc.apply({ accept: batch, reject: [] }).toBytes())]);
rows.push(['clean copy: accept all, remove comments, write', time(5, () => (doc = openDocx(withComments, { codec })), () => {
  doc.apply({ accept: doc.changeIds(), reject: [] }).removeComments().toBytes();
})]);

console.log(`Comments on the 300-page benchmark draft (${ids.length} changes), native zlib, medians:`);
for (const [what, ms] of rows) console.log(`  ${what.padEnd(50)} ${ms.toFixed(1).padStart(8)} ms`);
