import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { Prng } from '../../src/docx/fixture/prng';
import { parseXml } from '../../src/docx/xml/parse';
import { serializeXml } from '../../src/docx/xml/serialize';
import { XmlText, remove, walk, type XmlElement } from '../../src/docx/xml/tree';

/**
 * Test machinery: a seeded "next version" of a real .docx, edited the way a counterparty edits
 * without tracking changes (issue 26): words replaced, deleted and inserted inside runs; a
 * paragraph (from the body, a table cell, a content control or a text box) copied to another
 * place; a paragraph deleted; table rows inserted and deleted; a cell's text edited; paragraphs
 * split and joined. Only the body of word/document.xml is edited, and never inside mc:Fallback
 * (the text both the comparison and the oracle read is the mc:Choice's).
 *
 * Every result stays valid: a cell, a content control and the body keep at least one paragraph
 * and end with one, range markers (bookmarks, comments, permissions) keep their partners, no
 * section break is removed or duplicated, and complex fields are never cut.
 */
export type EditKind =
  | 'replace-word'
  | 'delete-word'
  | 'insert-word'
  | 'copy-paragraph'
  | 'delete-paragraph'
  | 'insert-row'
  | 'delete-row'
  | 'edit-cell'
  | 'split-paragraph'
  | 'join-paragraphs';

export interface Edit {
  kind: EditKind;
  /** Where, for a failure report: the containers of the edited place, e.g. 'body>tbl>tc>sdt'. */
  where: string;
}

export interface NextVersion {
  bytes: Uint8Array;
  edits: Edit[];
}

const WORDS = ['Licensee', 'promptly', 'material', 'reasonable', 'thereof', 'Supplier', 'written', 'notice', 'forty', 'hereunder'];
/** Elements that mark one end of a range whose other end is elsewhere. */
const RANGE_MARKS = /^w:(bookmark|commentRange|perm|moveFromRange|moveToRange|customXml\w*Range)(Start|End)$/;
const BLOCK_HOLDERS = new Set(['w:body', 'w:tc', 'w:sdtContent', 'w:txbxContent', 'w:customXml']);

/** `edits` (default 1 to 4) seeded edits of a document; null when the document offers no place for any. */
export function nextVersion(docx: Uint8Array, seed: number, edits?: number): NextVersion | null {
  const files = unzipSync(docx);
  const name = mainPartName(files);
  if (!name) return null;
  const xml = strFromU8(files[name]!);
  const doc = parseXml(xml);
  const body = doc.root.first('w:body');
  if (!body) return null;
  // The document's own hash in the seed: the same seed edits different documents differently.
  const rng = new Prng(Math.imul(seed, 7919) ^ fnv(xml));
  const done: Edit[] = [];
  const want = edits ?? rng.int(1, 4);
  for (let tries = 0; done.length < want && tries < want * 12; tries++) {
    const kind = rng.weighted<EditKind>({
      'replace-word': 3,
      'delete-word': 2,
      'insert-word': 2,
      'copy-paragraph': 3,
      'delete-paragraph': 2,
      'insert-row': 1,
      'delete-row': 1,
      'edit-cell': 1,
      'split-paragraph': 1,
      'join-paragraphs': 1,
    });
    const edit = EDITS[kind](body, rng);
    if (edit) done.push({ kind, where: edit });
  }
  if (!done.length) return null;
  files[name] = strToU8(serializeXml(doc));
  return { bytes: zipSync(files), edits: done };
}

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function mainPartName(files: Record<string, Uint8Array>): string | null {
  const rels = files['_rels/.rels'] ? strFromU8(files['_rels/.rels']) : '';
  const m = /Target="\/?([^"]+)"[^>]*Type="[^"]*\/officeDocument"|Type="[^"]*\/officeDocument"[^>]*Target="\/?([^"]+)"/.exec(rels);
  const target = m?.[1] ?? m?.[2] ?? 'word/document.xml';
  return files[target] ? target : null;
}

type Editor = (body: XmlElement, rng: Prng) => string | null;

const EDITS: Record<EditKind, Editor> = {
  'replace-word': (body, rng) => wordEdit(body, rng, 'replace', false),
  'delete-word': (body, rng) => wordEdit(body, rng, 'delete', false),
  'insert-word': (body, rng) => wordEdit(body, rng, 'insert', false),
  'edit-cell': (body, rng) => wordEdit(body, rng, 'replace', true),
  'copy-paragraph': copyParagraph,
  'delete-paragraph': deleteParagraph,
  'insert-row': insertRow,
  'delete-row': deleteRow,
  'split-paragraph': splitParagraph,
  'join-paragraphs': joinParagraphs,
};

/** The containers of an element up to the body, innermost last: 'body>tbl>tc>sdt>p'. */
function placeOf(el: XmlElement): string {
  const names: string[] = [];
  for (let e: XmlElement | null = el; e && e.name !== 'w:body'; e = e.parent) {
    if (['w:p', 'w:tbl', 'w:tc', 'w:sdt', 'w:txbxContent', 'w:customXml'].includes(e.name)) names.push(e.name.slice(2));
  }
  return ['body', ...names.reverse()].join('>');
}

/** Every element named `name` under the body, outside mc:Fallback. */
function all(body: XmlElement, name: string, keep: (e: XmlElement) => boolean = () => true): XmlElement[] {
  const out: XmlElement[] = [];
  walk(body, (e) => {
    if (e.name === 'mc:Fallback') return false;
    if (e.name === name && keep(e)) out.push(e);
    return true;
  });
  return out;
}

function has(el: XmlElement, test: (e: XmlElement) => boolean): boolean {
  let found = false;
  walk(el, (e) => {
    if (found) return false;
    if (e !== el && test(e)) found = true;
    return !found;
  });
  return found;
}

/** A paragraph is block level when it sits straight in a block holder. */
function blockParagraphs(body: XmlElement): XmlElement[] {
  return all(body, 'w:p', (p) => !!p.parent && BLOCK_HOLDERS.has(p.parent.name));
}


/** The w:t of plain runs (not in a deletion, a field's instruction or a text box's fallback) holding a word. */
function wordTexts(body: XmlElement, inCell: boolean): XmlElement[] {
  return all(body, 'w:t', (t) => {
    const r = t.parent;
    if (!r || r.name !== 'w:r' || !/[A-Za-z]{2,}/.test(text(t))) return false;
    if (inCell && !ancestorNamed(t, 'w:tc')) return false;
    return true;
  });
}

function ancestorNamed(el: XmlElement, name: string): XmlElement | null {
  for (let e = el.parent; e; e = e.parent) if (e.name === name) return e;
  return null;
}

function text(t: XmlElement): string {
  return t.children.map((c) => (c.kind === 2 ? c.text : '')).join('');
}

function setText(t: XmlElement, value: string): void {
  t.setChildren(value ? [new XmlText(value)] : []);
  t.setAttr('xml:space', 'preserve');
}

function wordEdit(body: XmlElement, rng: Prng, how: 'replace' | 'delete' | 'insert', inCell: boolean): string | null {
  const ts = wordTexts(body, inCell);
  if (!ts.length) return null;
  const t = rng.pick(ts);
  const s = text(t);
  const words = [...s.matchAll(/[A-Za-z]{2,}/g)];
  const w = rng.pick(words);
  const at = w.index;
  const word = rng.pick(WORDS);
  let next: string;
  if (how === 'replace') next = s.slice(0, at) + (word === w[0] ? `${word}s` : word) + s.slice(at + w[0].length);
  else if (how === 'insert') next = `${s.slice(0, at)}${word} ${s.slice(at)}`;
  else {
    // The word and one space beside it, so the text stays readable; a run may end up empty.
    const end = at + w[0].length;
    next = s[end] === ' ' ? s.slice(0, at) + s.slice(end + 1) : at > 0 && s[at - 1] === ' ' ? s.slice(0, at - 1) + s.slice(end) : s.slice(0, at) + s.slice(end);
  }
  setText(t, next);
  return placeOf(t);
}

/** A deep copy of a paragraph with nothing that must stay unique or paired: range markers, note and comment references, section breaks, ids. */
function cleanCopy(p: XmlElement): XmlElement {
  const copy = p.cloneDeep();
  const drop: XmlElement[] = [];
  walk(copy, (e) => {
    if (RANGE_MARKS.test(e.name) || e.name === 'w:sectPr' || e.name === 'w:footnoteReference' || e.name === 'w:endnoteReference' || e.name === 'w:commentReference') {
      drop.push(e);
      return false;
    }
    for (const a of ['w14:paraId', 'w14:textId', 'w:rsidR', 'w:rsidRDefault', 'w:rsidP']) if (e.attr(a) !== null) e.removeAttr(a);
    return true;
  });
  for (const e of drop) remove(e);
  return copy;
}

/** Block-level paragraphs worth copying: with text, no complex field half (a copy never cuts one) and no drawing of its own when it has a text box. */
function copyParagraph(body: XmlElement, rng: Prng): string | null {
  const sources = all(body, 'w:p', (p) => !!p.parent && BLOCK_HOLDERS.has(p.parent.name) && /\S/.test(allText(p)) && !has(p, (e) => e.name === 'w:txbxContent'));
  const targets = blockParagraphs(body).filter((p) => !ancestorNamed(p, 'w:txbxContent') || rng.next() < 0.2);
  if (!sources.length || !targets.length) return null;
  // Prefer sources inside containers (cells, content controls, text boxes): the shapes that break.
  const nested = sources.filter((p) => p.parent!.name !== 'w:body');
  const src = nested.length && rng.next() < 0.7 ? rng.pick(nested) : rng.pick(sources);
  const target = rng.pick(targets);
  const copy = cleanCopy(src);
  if (rng.next() < 0.5 || target.first('w:pPr')?.first('w:sectPr')) target.parent!.insertBefore(copy, target);
  else target.parent!.insertAfter(copy, target);
  return `${placeOf(src)} -> ${placeOf(copy)}`;
}

function allText(p: XmlElement): string {
  let s = '';
  walk(p, (e) => {
    if (e.name === 'mc:Fallback') return false;
    if (e.name === 'w:t') s += text(e);
    return true;
  });
  return s;
}

/** Paragraphs among a holder's direct blocks (a content control's content counts through its own holder). */
function paragraphsIn(holder: XmlElement): number {
  return holder.elements().filter((e) => e.name === 'w:p' || e.name === 'w:tbl' || e.name === 'w:sdt' || e.name === 'w:customXml').length;
}

function lastBlock(holder: XmlElement): XmlElement | undefined {
  const blocks = holder.elements().filter((e) => e.name === 'w:p' || e.name === 'w:tbl' || e.name === 'w:sdt' || e.name === 'w:customXml');
  return blocks[blocks.length - 1];
}

function unsafeToRemove(el: XmlElement): boolean {
  return has(el, (e) => RANGE_MARKS.test(e.name) || e.name === 'w:sectPr' || e.name === 'w:fldChar' || e.name === 'w:footnoteReference' || e.name === 'w:endnoteReference' || e.name === 'w:commentReference');
}

function deleteParagraph(body: XmlElement, rng: Prng): string | null {
  const candidates = blockParagraphs(body).filter((p) => {
    const h = p.parent!;
    if (unsafeToRemove(p) || paragraphsIn(h) < 2) return false;
    // Never between two tables: Word holds no two tables side by side (it joins them into one).
    const sibs = h.elements().filter((e) => ['w:p', 'w:tbl', 'w:sdt', 'w:customXml'].includes(e.name));
    const i = sibs.indexOf(p);
    if (sibs[i - 1]?.name === 'w:tbl' && sibs[i + 1]?.name === 'w:tbl') return false;
    // The holder must still end with a paragraph (a cell, the body): the last block stays unless a paragraph precedes it.
    if (lastBlock(h) === p) {
      const blocks = h.elements().filter((e) => ['w:p', 'w:tbl', 'w:sdt', 'w:customXml'].includes(e.name));
      if (blocks[blocks.length - 2]?.name !== 'w:p') return false;
    }
    return true;
  });
  if (!candidates.length) return null;
  const p = rng.pick(candidates);
  const where = placeOf(p);
  remove(p);
  return where;
}

function rows(body: XmlElement): XmlElement[] {
  return all(body, 'w:tr', (tr) => tr.parent?.name === 'w:tbl');
}

function insertRow(body: XmlElement, rng: Prng): string | null {
  const trs = rows(body).filter((tr) => !has(tr, (e) => e.name === 'w:vMerge' || e.name === 'w:tbl' || e.name === 'w:txbxContent'));
  if (!trs.length) return null;
  const tr = rng.pick(trs);
  const copy = tr.cloneDeep();
  const drop: XmlElement[] = [];
  walk(copy, (e) => {
    if (RANGE_MARKS.test(e.name) || e.name === 'w:footnoteReference' || e.name === 'w:endnoteReference' || e.name === 'w:commentReference') {
      drop.push(e);
      return false;
    }
    for (const a of ['w14:paraId', 'w14:textId']) if (e.attr(a) !== null) e.removeAttr(a);
    return true;
  });
  for (const e of drop) remove(e);
  // New text in every cell, so the row reads as new.
  for (const t of all(copy, 'w:t')) if (/\S/.test(text(t))) setText(t, `${rng.pick(WORDS)} ${rng.int(1, 99)}`);
  if (rng.next() < 0.5) tr.parent!.insertBefore(copy, tr);
  else tr.parent!.insertAfter(copy, tr);
  return placeOf(tr);
}

function deleteRow(body: XmlElement, rng: Prng): string | null {
  const trs = rows(body).filter((tr) => tr.parent!.elements().filter((e) => e.name === 'w:tr').length > 1 && !unsafeToRemove(tr) && !has(tr, (e) => e.name === 'w:vMerge'));
  if (!trs.length) return null;
  const tr = rng.pick(trs);
  const where = placeOf(tr);
  remove(tr);
  return where;
}

/** Splits a block paragraph inside one of its direct runs' text. */
function splitParagraph(body: XmlElement, rng: Prng): string | null {
  const ts = wordTexts(body, false).filter((t) => {
    const p = t.parent!.parent;
    return !!p && p.name === 'w:p' && !!p.parent && BLOCK_HOLDERS.has(p.parent.name) && text(t).length >= 2 && !has(p, (e) => e.name === 'w:fldChar' || e.name === 'w:fldSimple');
  });
  if (!ts.length) return null;
  const t = rng.pick(ts);
  const run = t.parent!;
  const p = run.parent!;
  const s = text(t);
  const cut = rng.int(1, s.length - 1);
  const first = p.cloneShallow();
  const pPr = p.first('w:pPr');
  if (pPr) {
    const ppr = pPr.cloneDeep();
    const sect = ppr.first('w:sectPr');
    if (sect) remove(sect);
    first.append(ppr);
  }
  for (const a of ['w14:paraId', 'w14:textId']) if (first.attr(a) !== null) first.removeAttr(a);
  // Children before the run move to the first paragraph, with a copy of the run holding the text before the cut.
  for (const c of [...p.children]) {
    if (c === run) break;
    if (c.kind === 1 && c.name === 'w:pPr') continue;
    remove(c);
    first.append(c);
  }
  // The run may hold several w:t (and tabs, breaks): the head keeps what comes before the cut, the run the rest.
  const idx = run.elements().indexOf(t);
  const head = run.cloneDeep();
  const headKids = head.elements();
  setText(headKids[idx]!, s.slice(0, cut));
  headKids.forEach((e, i) => {
    if (i > idx) remove(e);
  });
  first.append(head);
  run.elements().forEach((e, i) => {
    if (i < idx && e.name !== 'w:rPr') remove(e);
  });
  setText(t, s.slice(cut));
  p.parent!.insertBefore(first, p);
  return placeOf(p);
}

/** Joins two sibling block paragraphs: the second's content moves to the end of the first, which keeps its properties. */
function joinParagraphs(body: XmlElement, rng: Prng): string | null {
  const pairs: [XmlElement, XmlElement][] = [];
  for (const p of blockParagraphs(body)) {
    const sibs = p.parent!.elements();
    const next = sibs[sibs.indexOf(p) + 1];
    if (next?.name !== 'w:p' || p.first('w:pPr')?.first('w:sectPr') || has(next, (e) => e.name === 'w:sectPr')) continue;
    pairs.push([p, next]);
  }
  if (!pairs.length) return null;
  const [p, next] = rng.pick(pairs);
  for (const c of [...next.children]) {
    if (c.kind === 1 && c.name === 'w:pPr') continue;
    remove(c);
    p.append(c);
  }
  remove(next);
  return placeOf(p);
}
