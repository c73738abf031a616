import { EditNotFoundError } from '../errors';
import type { DocxPackage } from '../package/package';
import { PROPOSED_TAG, type PartScan } from '../revisions/sites';
import { XmlElement, XmlText, markDirty, walk, type XmlNode } from '../xml/tree';

/**
 * Redline edits: tracked changes written on behalf of a person or an agent. A `find` is exact
 * text within one paragraph of the main document (it may run across several runs; each piece
 * keeps its run's formatting), chosen by 1-based occurrence in document order. Text already
 * deleted (w:del, w:moveFrom) is not searchable; text inside insertions is.
 *
 * All finds are resolved before anything changes, so an edit that matches nothing throws
 * EditNotFoundError and leaves the document as it was. Edits are then applied in order, each
 * seeing the text the previous ones left. With `proposed`, inserted text is wrapped in a content
 * control tagged `redline:proposed:<id>` (accepting keeps the text, rejecting removes it).
 */
export interface RedlineEdit {
  op: 'replace' | 'insert' | 'delete';
  find: string;
  /** 1-based; default 1. */
  occurrence?: number;
  text?: string;
  justification?: string;
}

export interface RedlineOptions {
  author: string;
  date: string;
  proposed?: boolean;
}

export interface RedlineResult {
  changes: { editIndex: number; changeIds: string[] }[];
}

interface Segment {
  t: XmlElement;
  start: number;
  text: string;
}

interface Paragraph {
  text: string;
  segments: Segment[];
}

const DELETED = new Set(['w:del', 'w:moveFrom', 'mc:Fallback', 'w:pPr', 'w:rPr']);

function paragraphs(root: XmlElement): Paragraph[] {
  const out: Paragraph[] = [];
  walk(root, (el) => {
    if (DELETED.has(el.name)) return false;
    if (el.name !== 'w:p') return true;
    const segments: Segment[] = [];
    let text = '';
    const collect = (e: XmlElement): void => {
      for (const c of e.children) {
        if (c.kind !== 1 || DELETED.has(c.name) || c.name === 'w:p') continue;
        if (c.name === 'w:t' && c.parent?.name === 'w:r') {
          const s = c.children.map((k) => (k.kind === 2 ? k.text : '')).join('');
          segments.push({ t: c, start: text.length, text: s });
          text += s;
        } else collect(c);
      }
    };
    collect(el);
    out.push({ text, segments });
    return true; // nested paragraphs (text boxes) are searched on their own
  });
  return out;
}

interface Match {
  paragraph: Paragraph;
  from: number;
  to: number;
}

function locate(root: XmlElement, find: string, occurrence: number): Match | null {
  if (!find) return null;
  let seen = 0;
  for (const p of paragraphs(root)) {
    let at = p.text.indexOf(find);
    while (at >= 0) {
      if (++seen === occurrence) return { paragraph: p, from: at, to: at + find.length };
      at = p.text.indexOf(find, at + find.length);
    }
  }
  return null;
}

export function writeRedlinesIn(pkg: DocxPackage, scans: readonly PartScan[], edits: readonly RedlineEdit[], opts: RedlineOptions): RedlineResult {
  const root = pkg.xml(pkg.mainPart).root;
  edits.forEach((e, i) => {
    const occurrence = e.occurrence ?? 1;
    if (!locate(root, e.find, occurrence)) throw new EditNotFoundError(i, e.find, occurrence);
  });
  let nextId = 0;
  for (const s of scans) for (const site of s.sites) if (site.id !== null && /^\d+$/.test(site.id)) nextId = Math.max(nextId, Number(site.id) + 1);
  const newId = () => String(nextId++);
  const changes: RedlineResult['changes'] = [];
  edits.forEach((edit, editIndex) => {
    const occurrence = edit.occurrence ?? 1;
    const match = locate(root, edit.find, occurrence);
    if (!match) throw new EditNotFoundError(editIndex, edit.find, occurrence);
    const runs = isolate(match);
    const ids: string[] = [];
    let anchor = runs[runs.length - 1]!;
    if (edit.op === 'replace' || edit.op === 'delete') {
      for (const group of siblingGroups(runs)) {
        const id = newId();
        const del = XmlElement.create('w:del', { 'w:id': id, 'w:author': opts.author, 'w:date': opts.date });
        group[0]!.parent!.insertBefore(del, group[0]!);
        for (const r of group) {
          for (const t of r.all('w:t')) rename(t, 'w:delText');
          del.append(r);
        }
        ids.push(id);
        anchor = del;
      }
    }
    if ((edit.op === 'replace' || edit.op === 'insert') && edit.text) {
      while (anchor.parent && ['w:ins', 'w:del', 'w:moveTo', 'w:moveFrom'].includes(anchor.parent.name)) anchor = anchor.parent;
      const run = textRun(runs[runs.length - 1]!, edit.text);
      const insId = newId();
      const ins = XmlElement.create('w:ins', { 'w:id': insId, 'w:author': opts.author, 'w:date': opts.date }, [run]);
      if (opts.proposed) {
        const sdtId = newId();
        const sdt = XmlElement.create('w:sdt', {}, [
          XmlElement.create('w:sdtPr', {}, [
            XmlElement.create('w:alias', { 'w:val': 'Proposed change' }),
            XmlElement.create('w:tag', { 'w:val': `${PROPOSED_TAG}${sdtId}` }),
            XmlElement.create('w:id', { 'w:val': String(1_000_000 + Number(sdtId)) }),
          ]),
          XmlElement.create('w:sdtContent', {}, [ins]),
        ]);
        anchor.parent!.insertAfter(sdt, anchor);
        ids.push(sdtId);
      } else {
        anchor.parent!.insertAfter(ins, anchor);
        ids.push(insId);
      }
    }
    changes.push({ editIndex, changeIds: ids.map((id) => `c${id}`) });
  });
  return { changes };
}

/** Splits runs so that exactly the matched text stands in runs of its own; returns them in order. */
function isolate(match: Match): XmlElement[] {
  const out: XmlElement[] = [];
  for (const seg of match.paragraph.segments) {
    const s = Math.max(match.from, seg.start) - seg.start;
    const e = Math.min(match.to, seg.start + seg.text.length) - seg.start;
    if (e <= s) continue;
    out.push(isolateInRun(seg.t, seg.text, s, e));
  }
  return out;
}

function isolateInRun(t: XmlElement, text: string, s: number, e: number): XmlElement {
  const run = t.parent!;
  const rPr = run.first('w:rPr');
  const kids = run.children.filter((c) => c !== rPr);
  const idx = kids.indexOf(t);
  const left = [...kids.slice(0, idx), ...(s > 0 ? [textElement(text.slice(0, s))] : [])];
  const right = [...(e < text.length ? [textElement(text.slice(e))] : []), ...kids.slice(idx + 1)];
  const withProps = (nodes: XmlNode[]): XmlElement => {
    const r = run.cloneShallow();
    if (rPr) r.append(rPr.cloneDeep());
    for (const n of nodes) r.append(n);
    return r;
  };
  if (left.some((n) => n.kind === 1)) run.parent!.insertBefore(withProps(left), run);
  if (right.some((n) => n.kind === 1)) run.parent!.insertAfter(withProps(right), run);
  run.setChildren([...(rPr ? [rPr] : []), textElement(text.slice(s, e))]);
  return run;
}

function textElement(text: string): XmlElement {
  return XmlElement.create('w:t', { 'xml:space': 'preserve' }, [new XmlText(text)]);
}

/** A run with the formatting of `like`; tabs and line breaks in `text` become w:tab and w:br. */
function textRun(like: XmlElement, text: string): XmlElement {
  const run = XmlElement.create('w:r');
  const rPr = like.first('w:rPr');
  if (rPr) {
    const copy = rPr.cloneDeep();
    for (const c of copy.all('w:rPrChange')) copy.setChildren(copy.children.filter((k) => k !== c));
    run.append(copy);
  }
  text.split(/(\t|\n)/).forEach((piece) => {
    if (piece === '\t') run.append(XmlElement.create('w:tab'));
    else if (piece === '\n') run.append(XmlElement.create('w:br'));
    else if (piece) run.append(textElement(piece));
  });
  return run;
}

function siblingGroups(runs: XmlElement[]): XmlElement[][] {
  const groups: XmlElement[][] = [];
  for (const r of runs) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (prev && prev.parent === r.parent && prev.parent!.children.indexOf(prev) + 1 === r.parent!.children.indexOf(r)) last!.push(r);
    else groups.push([r]);
  }
  return groups;
}

function rename(el: XmlElement, name: string): void {
  el.name = name;
  el.dirty = false;
  markDirty(el);
}
