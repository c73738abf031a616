/**
 * The comparison's round-trip contract, checked from outside the comparison: accepting every
 * change of compare(older, newer) gives newer's text, rejecting every change gives older's
 * (paragraph by paragraph, empty paragraphs and table cells included, in every compared story),
 * the output lists in the engine with unique change ids, and deciding it leaves no revision.
 * Text is read with fflate and the XML parser directly, not through the comparison's own reader.
 */
import { unzipSync } from 'fflate';
import { openDocx } from '../../src/docx/index';
import { parseXml } from '../../src/docx/xml/parse';
import type { XmlElement } from '../../src/docx/xml/tree';
import { within } from '../conformance/doctext';
import { documentStructure } from '../conformance/docstructure';

/** Every paragraph of the body (tables cell by cell), then of headers, footers and notes: `part: text`. */
export function storyParagraphs(bytes: Uint8Array, opts: { bodyOnly?: boolean } = {}): string[] {
  const files = unzipSync(bytes, { filter: (f) => /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/.test(f.name) });
  const out: string[] = [];
  const names = Object.keys(files).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const name of names) {
    if (opts.bodyOnly && name !== 'word/document.xml') continue;
    const root = parseXml(new TextDecoder().decode(files[name]!)).root;
    const container = name === 'word/document.xml' ? root.first('w:body') : root;
    if (!container) continue;
    if (/notes\.xml$/.test(name)) {
      for (const note of container.elements()) {
        const type = note.attr('w:type');
        if (type && type !== 'normal') continue;
        // Notes nobody references are left over from deleted references; only referenced ones count.
        out.push(`${name}#${note.attr('w:id')}`);
        blocks(note, (t) => out.push(`${name}: ${t}`));
      }
    } else blocks(container, (t) => out.push(`${name}: ${t}`));
  }
  return out;
}

function rank(name: string): number {
  return name === 'word/document.xml' ? 0 : name.includes('header') ? 1 : name.includes('footer') ? 2 : 3;
}

/**
 * The paragraphs of a container as Word opens it: a container without any paragraph (a note
 * written `<w:footnote w:id="1"/>`), or ending with a table, reads with one empty paragraph at its
 * end (Word always ends a story, a note and a cell with a paragraph).
 */
function blocks(container: XmlElement, emit: (text: string) => void): void {
  if (!blocksOf(container, emit)) emit('');
}

/** Emits the container's paragraphs; whether it ended with a paragraph. */
function blocksOf(container: XmlElement, emit: (text: string) => void): boolean {
  let endsWithParagraph = false;
  for (const e of container.elements()) {
    if (e.name === 'w:p') {
      emit(paragraphText(e));
      endsWithParagraph = true;
    } else if (e.name === 'w:tbl') {
      endsWithParagraph = false;
      for (const tr of within(e, 'w:tr')) {
        emit('<row>');
        for (const tc of within(tr, 'w:tc')) {
          emit('<cell>');
          blocks(tc, emit);
        }
      }
    } else if (e.name === 'w:sdt') {
      const c = e.first('w:sdtContent');
      if (c) endsWithParagraph = blocksOf(c, emit);
    } else if (e.name === 'w:customXml') endsWithParagraph = blocksOf(e, emit);
  }
  return endsWithParagraph;
}

/** A paragraph's text as the contract reads it: text, math text, tabs and breaks, hyperlinks and fields included. */
export function paragraphText(p: XmlElement): string {
  let s = '';
  const walk = (e: XmlElement): void => {
    if (e.name === 'mc:Fallback' || e.name === 'w:pPr' || e.name === 'w:rPr' || e.name === 'w:delText') return;
    if (e.name === 'w:t' || e.name === 'm:t') {
      for (const c of e.children) if (c.kind === 2) s += c.text;
      return;
    }
    if (e.name === 'w:tab') s += '\t';
    if (e.name === 'w:br' || e.name === 'w:cr') s += '\n';
    for (const c of e.elements()) walk(c);
  };
  for (const c of p.elements()) walk(c);
  return s;
}

/** Every change of the document accepted (or rejected). */
export function decideAll(bytes: Uint8Array, verdict: 'accept' | 'reject'): Uint8Array {
  const doc = openDocx(bytes);
  const ids = doc.changeIds();
  return doc.apply(verdict === 'accept' ? { accept: ids, reject: [] } : { accept: [], reject: ids }).toBytes();
}

/**
 * The contract's text: `storyParagraphs`, with the notes in the order the document refers to
 * them (a note nobody refers to, left by a deleted reference, does not count; note ids may differ).
 */
export function contractText(bytes: Uint8Array, opts: { bodyOnly?: boolean } = {}): string[] {
  const files = unzipSync(bytes, { filter: (f) => /^word\/(document|header\d*|footer\d*)\.xml$/.test(f.name) });
  const order: string[] = [];
  for (const name of Object.keys(files).sort((x, y) => rank(x) - rank(y) || x.localeCompare(y))) {
    const xml = new TextDecoder().decode(files[name]!);
    for (const m of xml.matchAll(/<w:(footnote|endnote)Reference\b[^>]*w:id="(-?\d+)"/g)) order.push(`word/${m[1]}s.xml#${m[2]}`);
  }
  const notes = new Map<string, string[]>();
  const out: string[] = [];
  let current: string[] | null = null;
  for (const line of storyParagraphs(bytes, opts)) {
    if (/^word\/(?:foot|end)notes\.xml#-?\d+$/.test(line)) {
      notes.set(line, (current = []));
      continue;
    }
    if (line.startsWith('word/footnotes.xml') || line.startsWith('word/endnotes.xml')) current!.push(line);
    else out.push(line);
  }
  for (const ref of order) out.push(...(notes.get(ref) ?? []));
  return out;
}

export interface ContractOutcome {
  changes: number;
  problems: string[];
  /** The output with every change accepted, and rejected (for checks beyond the contract's text: blockProblems). */
  accepted: Uint8Array;
  rejected: Uint8Array;
}

/**
 * Checks the contract on a comparison's output. `older` and `newer` are the inputs as the
 * comparison read them (their accepted or rejected views when they carry changes).
 */
export function checkContract(olderView: Uint8Array, newerView: Uint8Array, output: Uint8Array, opts: { bodyOnly?: boolean } = {}): ContractOutcome {
  const problems: string[] = [];
  const doc = openDocx(output);
  if (doc.renumbered) problems.push('the output needed new ids: change ids were not unique');
  const revisions = doc.revisions();
  const ids = revisions.map((r) => r.change_id);
  if (new Set(ids).size !== ids.length) problems.push('duplicate change ids');
  problems.push(...unpairedMoveRanges(output));
  const accepted = decideAll(output, 'accept');
  const rejected = decideAll(output, 'reject');
  for (const [what, got, want] of [
    ['accept-all', accepted, newerView],
    ['reject-all', rejected, olderView],
  ] as const) {
    if (openDocx(got).revisionCount !== 0) problems.push(`${what} left revisions`);
    const a = contractText(got, opts);
    const b = contractText(want, opts);
    if (a.join('\u0000') !== b.join('\u0000')) problems.push(`${what} differs: ${firstDifference(a, b)}`);
  }
  return { changes: revisions.length, problems, accepted, rejected };
}

/**
 * The contract's block-level half, which its text cannot see: accept-all's body has newer's blocks
 * and reject-all's older's, each paragraph in the container it stood in (a content control, a
 * table's cell, the body) and tables, rows, cells and controls where they stood
 * (docstructure.ts). A paragraph deleted beside a control that comes back inside it reads the same
 * paragraph by paragraph.
 */
export function blockProblems(olderView: Uint8Array, newerView: Uint8Array, decided: Pick<ContractOutcome, 'accepted' | 'rejected'>): string[] {
  const problems: string[] = [];
  for (const [what, got, want] of [
    ['accept-all', decided.accepted, newerView],
    ['reject-all', decided.rejected, olderView],
  ] as const) {
    const a = documentStructure(got);
    const b = documentStructure(want);
    if (a.join('\n') !== b.join('\n')) problems.push(`${what}'s blocks differ: ${firstBlockDifference(a, b)}`);
  }
  return problems;
}

/** The first line where two block structures differ, with the lines before it that say where it is. */
function firstBlockDifference(got: readonly string[], want: readonly string[]): string {
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  const line = (l: string | undefined): string => JSON.stringify(l?.slice(0, 100) ?? null);
  return `block ${i}: got ${line(got[i])}, want ${line(want[i])} (after ${line(want[i - 1])}; ${got.length} vs ${want.length} lines)`;
}

function firstDifference(got: string[], want: string[]): string {
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    if (got[i] !== want[i]) return `paragraph ${i}: got ${JSON.stringify(got[i]?.slice(0, 120))}, want ${JSON.stringify(want[i]?.slice(0, 120))} (${got.length} vs ${want.length} paragraphs)`;
  }
  return 'same paragraphs';
}

/** Move range starts without an end of the same kind and id (or ends without a start), in every story part. */
function unpairedMoveRanges(bytes: Uint8Array): string[] {
  const files = unzipSync(bytes, { filter: (f) => /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/.test(f.name) });
  const out: string[] = [];
  for (const [name, data] of Object.entries(files)) {
    const xml = new TextDecoder().decode(data);
    const ids = (what: string): string[] => [...xml.matchAll(new RegExp(`<w:${what}\\b[^>]*?\\sw:id="([^"]*)"`, 'g'))].map((m) => m[1]!).sort();
    for (const kind of ['moveFrom', 'moveTo']) {
      const starts = ids(`${kind}RangeStart`);
      const ends = ids(`${kind}RangeEnd`);
      if (starts.join() !== ends.join()) out.push(`${name}: ${kind} range starts ${starts.join(',')} and ends ${ends.join(',')} do not pair`);
    }
  }
  return out;
}
