import { markProperties } from '../ooxml/paragraphs';
import { insertProperty } from '../ooxml/schema-order';
import { blockAfter } from '../revisions/joins';
import { XmlElement, XmlRaw, XmlText, markDirty, remove, walk, type XmlNode } from '../xml/tree';
import { NEUTRAL_RUN_CHILDREN, PPR_NOT_COMPARED, TABLE_NOT_FORMATTING, elementText, paragraphPropertiesKey, within, type TableHolder } from './model';

/**
 * Writing the comparison's tracked changes into newer's tree. Everything is first planned (what
 * each piece of text, run child and paragraph-level element becomes, what goes before it, which
 * paragraph marks change), then written paragraph by paragraph: a paragraph the plan does not
 * touch keeps its elements (and so its bytes); a touched one is rebuilt from its children, runs
 * split where a change starts or ends, with their formatting.
 */

/** What a piece of newer content becomes: inserted, the destination of a move, or reformatted (old run properties). */
export type Status = { kind: 'ins' } | { kind: 'moveTo' } | { kind: 'format'; old: XmlElement | null };
export type MarkKind = 'ins' | 'del' | 'moveFrom' | 'moveTo';

/** Something put into newer's paragraph: our deleted content, or a split (a deleted older paragraph mark). */
export type Insertion = { kind: 'content'; nodes: XmlElement[] } | { kind: 'split'; oldParagraph: XmlElement };

interface Rec {
  from: number;
  to: number;
  status: Status | null;
  before: Insertion[];
}

/** Who and when: every revision element the comparison writes carries them, and a fresh id. */
export class RevisionWriter {
  /** Every revision element written, so the result can tell our changes from newer's own. */
  readonly written = new Set<XmlElement>();

  constructor(
    private readonly author: string,
    private readonly date: string,
    private nextId: number,
  ) {}

  id(): string {
    return String(this.nextId++);
  }

  element(name: string, children: XmlNode[] = [], extra: Record<string, string> = {}): XmlElement {
    const el = XmlElement.create(name, { 'w:id': this.id(), 'w:author': this.author, 'w:date': this.date, ...extra }, children);
    this.written.add(el);
    return el;
  }

  rangeMarkers(kind: 'moveFrom' | 'moveTo', name: string): [XmlElement, XmlElement] {
    const id = this.id();
    const start = XmlElement.create(`w:${kind}RangeStart`, { 'w:id': id, 'w:author': this.author, 'w:date': this.date, 'w:name': name });
    const end = XmlElement.create(`w:${kind}RangeEnd`, { 'w:id': id });
    return [start, end];
  }
}

/** Paragraph-level elements whose tracked insertion or deletion wraps their runs, not themselves. */
const WRAPPED_INSIDE = new Set(['w:hyperlink', 'w:fldSimple']);

export class Plan {
  private recs = new Map<XmlElement, Rec[]>();
  private atEnd = new Map<XmlElement, Insertion[]>();
  /** Elements on the path from a paragraph to something planned (the paragraph included). */
  private touched = new Set<XmlElement>();
  readonly marks = new Map<XmlElement, MarkKind>();
  /** Move range markers to put at the start of a paragraph's content and at its end. */
  readonly moveRanges = new Map<XmlElement, { start?: XmlElement; end?: XmlElement }>();
  private paragraphs = new Set<XmlElement>();
  /** Elements copied from older into newer (deleted paragraphs, rows, cells, split-off paragraphs). */
  readonly fromOlder = new Set<XmlElement>();
  /** Atoms of newer whose text boxes were compared: their mc:Fallback copies are made to match. */
  readonly boxOwners = new Set<XmlElement>();

  constructor(private readonly rw: RevisionWriter) {}

  /** A piece (text range, run child or paragraph-level element) of newer becomes `status`. */
  setStatus(node: XmlElement, from: number, to: number, status: Status): void {
    this.rec(node, from, to).status = status;
  }

  /** Puts an insertion before the piece starting at `from` of `node`. */
  before(node: XmlElement, from: number, to: number, ins: Insertion): void {
    this.rec(node, from, to).before.push(ins);
  }

  /** Puts an insertion at the end of paragraph `p`'s content. */
  end(p: XmlElement, ins: Insertion): void {
    const list = this.atEnd.get(p);
    if (list) list.push(ins);
    else this.atEnd.set(p, [ins]);
    this.touch(p);
  }

  /** Has paragraph `p` rebuilt even when none of its content changes (to add range markers). */
  touchParagraph(p: XmlElement): void {
    this.touch(p);
  }

  private rec(node: XmlElement, from: number, to: number): Rec {
    let list = this.recs.get(node);
    if (!list) this.recs.set(node, (list = []));
    // A zero-length record is a position (something goes before the text there); it sorts first.
    let r: Rec | undefined;
    for (let k = list.length - 1; k >= 0 && !r; k--) if (list[k]!.from === from && list[k]!.to === to) r = list[k];
    if (!r) {
      r = { from, to, status: null, before: [] };
      // Kept in order by inserting in place (records mostly come in order): sorting after each
      // one allocated a work array every time, about a tenth of a comparison's garbage.
      let i = list.length;
      while (i > 0 && (list[i - 1]!.from > from || (list[i - 1]!.from === from && list[i - 1]!.to > to))) i--;
      if (i === list.length) list.push(r);
      else list.splice(i, 0, r);
    }
    this.touch(node);
    return r;
  }

  private touch(node: XmlElement): void {
    for (let e: XmlElement | null = node; e && !this.touched.has(e); e = e.parent) {
      this.touched.add(e);
      if (e.name === 'w:p') {
        this.paragraphs.add(e);
        break;
      }
    }
  }

  // ---- writing ------------------------------------------------------------------------------

  /** Paragraphs split off a rebuilt paragraph, to insert before it once it is back in the tree. */
  private splitOff: [XmlElement, XmlElement][] = [];
  /** The paragraphs split off each paragraph, in order. */
  private splitOffsOf = new Map<XmlElement, XmlElement[]>();
  /** Tails of backward joins in newer's rejected view (StoryReader.backwardJoins). */
  private backwardTails: XmlElement[][] = [];

  /** Newer's rejected view joined these paragraphs backward: see settleBackwardJoin. */
  backwardJoin(tail: XmlElement[]): void {
    this.backwardTails.push(tail);
  }

  /** Rebuilds every touched paragraph, then writes the paragraph marks. */
  write(): void {
    for (const p of this.paragraphs) {
      this.rebuild(p);
      for (const [np, before] of this.splitOff) before.parent!.insertBefore(np, before);
      if (this.splitOff.length) this.splitOffsOf.set(p, this.splitOff.map(([np]) => np));
      this.splitOff = [];
    }
    for (const tail of this.backwardTails) this.settleBackwardJoin(tail);
    this.writeMarks();
    for (const owner of this.boxOwners) syncFallbacks(owner);
  }

  /**
   * A tail of paragraphs whose marks newer inserted, joined backward in its rejected view (the
   * engine took the mark of the paragraph before it, B's), after the comparison wrote its marks.
   * On reject the engine joins the tail again, against what is there then:
   * - if the table after the tail is one the comparison marked inserted, it is gone: the tail
   *   joins forward, past it, and B's mark stays. A split the comparison wrote at the tail's start,
   *   where B's mark stands, would make that mark twice (an empty paragraph); it goes. And the
   *   tail's end, a mark in the view, needs one of ours: the tail's last paragraph is split at its
   *   end.
   * - else it still joins backward, and takes the last mark before it: the last split the
   *   comparison wrote in the tail, if any, and B's stays. A split at the tail's start would again
   *   make B's mark twice, so it moves after the tail's last split, to be the mark taken.
   * On accept every split goes, so the accepted view is as before.
   */
  private settleBackwardJoin(tail: readonly XmlElement[]): void {
    const first = this.splitOffsOf.get(tail[0]!)?.[0];
    const doubled = first && !first.elements().some((c) => c.name !== 'w:pPr') ? first : null;
    const end = tail[tail.length - 1]!;
    if (followerInserted(end)) {
      if (doubled) {
        remove(doubled);
        this.marks.delete(doubled);
        this.fromOlder.delete(doubled);
      }
      const np = this.splitOffParagraph(end.first('w:pPr'));
      for (const c of end.children.filter((k) => !(k.kind === 1 && k.name === 'w:pPr'))) np.append(c);
      end.parent!.insertBefore(np, end);
      return;
    }
    if (!doubled) return;
    let last: XmlElement | undefined;
    for (let i = tail.length - 1; i >= 0 && !last; i--) {
      const splits = this.splitOffsOf.get(tail[i]!);
      if (splits?.length) last = splits[splits.length - 1];
    }
    if (last && last !== doubled) last.parent!.insertAfter(doubled, last);
  }

  /** A paragraph split off one whose properties are `pPr`: a copy of them, and an older mark (deleted). */
  private splitOffParagraph(pPr: XmlElement | null): XmlElement {
    const np = XmlElement.create('w:p');
    if (pPr) np.append(cleanParagraphProperties(pPr.cloneDeep()));
    this.marks.set(np, 'del');
    this.fromOlder.add(np);
    return np;
  }

  private rebuild(p: XmlElement): void {
    // Detached while its content is regrouped: moving each of its nodes into a new run or wrapper
    // then marks only the paragraph changed, not every ancestor up to the document each time.
    const parent = p.parent;
    p.parent = null;
    try {
      this.regroup(p);
    } finally {
      p.parent = parent;
    }
    markDirty(p);
  }

  private regroup(p: XmlElement): void {
    const items: Item[] = [];
    this.items(p, [], items);
    for (const ins of this.atEnd.get(p) ?? []) pushInsertion(items, ins);
    const pPr = p.first('w:pPr');
    const range = this.moveRanges.get(p);
    // Split at deleted older marks: each stretch before one becomes a paragraph of its own.
    let segment: XmlNode[] = [];
    const segments: { nodes: XmlNode[]; old: XmlElement | null }[] = [];
    for (const g of groups(items)) {
      if (g.kind === 'split') {
        segments.push({ nodes: segment, old: g.old });
        segment = [];
      } else segment.push(...this.wrapGroup(g));
    }
    for (const s of segments) {
      // An older paragraph whose mark is deleted (it joins the paragraph it is split off) carries
      // that paragraph's properties, numbering included, and a pPrChange recording its own where
      // they differ, as Word writes a join: the output shows newer's numbering, rejecting the
      // change restores older's.
      const np = this.splitOffParagraph(pPr);
      if (paragraphPropertiesKey(np) !== paragraphPropertiesKey(s.old!)) recordParagraphProperties(np, s.old!, this.rw);
      for (const n of s.nodes) np.append(n);
      this.splitOff.push([np, p]);
    }
    const rest: XmlNode[] = [];
    if (pPr) rest.push(pPr);
    if (range?.start) rest.push(range.start);
    rest.push(...segment);
    if (range?.end) rest.push(range.end);
    p.setChildren(rest);
  }

  /** Turns a group of items into nodes: our insertions wrapped, their wrappers restored around their content. */
  private wrapGroup(g: Exclude<Group, { kind: 'split' }>): XmlNode[] {
    if (g.kind === 'ours') return g.nodes;
    const restored = rewrap(g.wraps, g.nodes);
    if (g.kind === 'eq') return restored;
    const name = g.kind === 'moveTo' ? 'w:moveTo' : 'w:ins';
    const out: XmlNode[] = [];
    let run: XmlNode[] = [];
    const flush = (): void => {
      if (run.length) out.push(this.rw.element(name, run));
      run = [];
    };
    for (const n of restored) {
      if (n.kind === 1 && WRAPPED_INSIDE.has(n.name)) {
        flush();
        n.setChildren([this.rw.element(name, [...n.children])]);
        out.push(n);
      } else run.push(n);
    }
    flush();
    return out;
  }

  /** The items of a paragraph (or one of its wrappers) in order; `wraps`: their wrappers around them, outermost first. */
  private items(parent: XmlElement, wraps: XmlElement[], out: Item[]): void {
    for (const c of parent.children) {
      if (c.kind !== 1) {
        out.push({ kind: 'eq', node: c, wraps });
        continue;
      }
      if (c.name === 'w:pPr' && parent.name === 'w:p') continue;
      if (!this.touched.has(c)) {
        out.push({ kind: 'eq', node: c, wraps });
        continue;
      }
      if (c.name === 'w:r') this.runItems(c, wraps, out);
      else if (c.name === 'w:sdt' && c.first('w:sdtContent') && !this.recs.has(c)) {
        // A control the view reads through (its insertion is tracked): its content is planned, the control stays around it.
        const content = c.first('w:sdtContent')!;
        this.items(content, [...wraps, c, content], out);
      }
      else if (c.name === 'w:ins' || c.name === 'w:del' || c.name === 'w:moveFrom' || c.name === 'w:moveTo') this.items(c, [...wraps, c], out);
      else {
        const rec = this.recs.get(c)?.[0];
        for (const ins of rec?.before ?? []) pushInsertion(out, ins);
        out.push({ kind: kindOf(rec?.status ?? null), node: c, wraps });
      }
    }
  }

  /** A run split where the status of its content changes; unchanged stretches keep the run's formatting. */
  private runItems(run: XmlElement, wraps: XmlElement[], out: Item[]): void {
    const rPr = run.first('w:rPr');
    let chunk: XmlNode[] = [];
    let status: Status | null = null;
    const close = (): void => {
      if (!chunk.length) return;
      const r = run.cloneShallow();
      const props = rPr ? rPr.cloneDeep() : null;
      if (status?.kind === 'format' && !props?.first('w:rPrChange')) {
        const holder = props ?? XmlElement.create('w:rPr');
        const old = XmlElement.create('w:rPr', {}, status.old ? status.old.elements().filter((k) => !RPR_RECORDS.has(k.name)).map((k) => k.cloneDeep()) : []);
        insertProperty(holder, this.rw.element('w:rPrChange', [old]));
        r.append(holder);
      } else if (props) r.append(props);
      for (const n of chunk) r.append(n);
      out.push({ kind: kindOf(status), node: r, wraps });
      chunk = [];
    };
    const add = (node: XmlNode, s: Status | null): void => {
      if (chunk.length && !sameStatus(s, status)) close();
      status = s;
      chunk.push(node);
    };
    const flushBefore = (list: Insertion[]): void => {
      if (!list.length) return;
      close();
      for (const ins of list) pushInsertion(out, ins);
    };
    for (const k of [...run.children]) {
      if (k === rPr) continue;
      const recs = k.kind === 1 ? this.recs.get(k) : undefined;
      if (!recs) {
        // Markers without content go with what is around them; unchanged content is unchanged.
        const neutral = k.kind !== 1 || NEUTRAL_RUN_CHILDREN.has(k.name);
        add(k, neutral && chunk.length ? status : null);
        continue;
      }
      const el = k as XmlElement;
      if (el.name === 'w:t' || el.name === 'w:delText') {
        // Adjacent pieces of the same status (the words and spaces of one change) become one text element.
        const text = elementText(el);
        let at = 0;
        let from = -1;
        let status: Status | null = null;
        for (const rec of recs) {
          const joins = from >= 0 && rec.from === at && rec.before.length === 0 && rec.to > rec.from && sameStatus(status, rec.status);
          if (from >= 0 && !joins) {
            add(textElement(el.name, text.slice(from, at)), status);
            from = -1;
          }
          if (rec.from > at) add(textElement(el.name, text.slice(at, rec.from)), null);
          flushBefore(rec.before);
          if (rec.to > rec.from && from < 0) {
            from = rec.from;
            status = rec.status;
          }
          at = Math.max(at, rec.to);
        }
        if (from >= 0) add(textElement(el.name, text.slice(from, at)), status);
        if (at < text.length) add(textElement(el.name, text.slice(at)), null);
      } else {
        const rec = recs[0]!;
        flushBefore(rec.before);
        add(el, rec.status);
      }
    }
    close();
  }

  /**
   * Writes the planned paragraph marks. A mark cannot come or go where no paragraph follows in the
   * same container (the last paragraph of a cell or story, one before a table), so a stretch of
   * changed marks ending there is moved up by one: the paragraph before it carries the change, as
   * Word writes an inserted last paragraph (the new mark is the one before it).
   */
  private writeMarks(): void {
    const parents = new Set<XmlElement>();
    for (const p of this.marks.keys()) if (p.parent) parents.add(p.parent);
    for (const parent of parents) {
      const blocks = parent.elements().filter((e) => !BETWEEN_BLOCKS.has(e.name));
      for (let i = 0; i < blocks.length; i++) {
        if (!this.marks.has(blocks[i]!)) continue;
        let j = i;
        while (j + 1 < blocks.length && blocks[j + 1]!.name === 'w:p' && this.marks.has(blocks[j + 1]!)) j++;
        let next = blocks[j + 1];
        // Tables every row of which is an insertion go in the rejected view, where inserted marks
        // go: a paragraph before one keeps its mark in the accepted view, and, rejected, joins
        // the paragraph after the tables (the engine passes over a table left without rows).
        if (next && isInsertedTable(next)) {
          let n = j + 1;
          while (n < blocks.length && isInsertedTable(blocks[n]!)) n++;
          let allIns = true;
          for (let k = i; k <= j; k++) allIns &&= this.marks.get(blocks[k]!) === 'ins';
          if (allIns) next = blocks[n];
        }
        const prev = blocks[i - 1];
        if ((!next || next.name !== 'w:p') && prev?.name === 'w:p' && !this.marks.has(prev)) {
          for (let k = i; k <= j; k++) {
            const kind = this.marks.get(blocks[k]!)!;
            this.marks.set(blocks[k - 1]!, kind === 'moveFrom' ? 'del' : kind === 'moveTo' ? 'ins' : kind);
          }
          this.marks.delete(blocks[j]!);
        }
        i = j;
      }
    }
    for (const [p, kind] of this.marks) {
      const rPr = markProperties(p);
      const own = rPr.elements().filter((c) => MARK_RECORDS.has(c.name));
      // Newer's own deleted mark, which the rejected view sees, that older has not: it was
      // inserted untracked, then deleted tracked. Word writes both on the mark; rejecting the
      // insertion takes the mark away (older's join), accepting both does too (newer's).
      if (kind === 'ins' && own.length === 1 && own[0]!.name === 'w:del') insertProperty(rPr, this.rw.element('w:ins'));
      if (own.length) continue;
      insertProperty(rPr, this.rw.element(`w:${kind}`));
    }
  }
}

const RPR_RECORDS = new Set(['w:rPrChange', 'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);
const MARK_RECORDS = new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);

/** A table whose every row carries a tracked insertion: rejecting all leaves it without rows. */
function isInsertedTable(el: XmlElement): boolean {
  if (el.name !== 'w:tbl') return false;
  const rows = el.elements().filter((c) => c.name === 'w:tr');
  return rows.length > 0 && rows.length === el.elements().filter((c) => c.name === 'w:tr' || c.name === 'w:sdt' || c.name === 'w:customXml').length && rows.every((tr) => !!tr.first('w:trPr')?.first('w:ins'));
}

const BETWEEN_BLOCKS = new Set([
  'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:moveFromRangeStart',
  'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd', 'w:permStart', 'w:permEnd', 'w:proofErr',
  'w:tcPr', 'w:sectPr', 'w:tblPr', 'w:tblGrid',
]);

type Item =
  | { kind: 'eq' | 'ins' | 'moveTo'; node: XmlNode; wraps: XmlElement[] }
  | { kind: 'ours'; node: XmlElement; wraps: XmlElement[] }
  | { kind: 'split'; old: XmlElement; wraps: XmlElement[] };

type Group =
  | { kind: 'eq' | 'ins' | 'moveTo' | 'ours'; nodes: XmlNode[]; wraps: XmlElement[] }
  | { kind: 'split'; old: XmlElement };

function kindOf(s: Status | null): 'eq' | 'ins' | 'moveTo' {
  return s?.kind === 'ins' ? 'ins' : s?.kind === 'moveTo' ? 'moveTo' : 'eq';
}

function sameStatus(a: Status | null, b: Status | null): boolean {
  if (!a || !b) return a === b;
  if (a.kind !== b.kind) return false;
  return a.kind !== 'format' || a.old === (b as { old: XmlElement | null }).old;
}

function pushInsertion(out: Item[], ins: Insertion): void {
  if (ins.kind === 'split') out.push({ kind: 'split', old: ins.oldParagraph, wraps: [] });
  else for (const n of ins.nodes) out.push({ kind: 'ours', node: n, wraps: [] });
}

/** Consecutive items of the same kind inside the same wrappers. */
function groups(items: readonly Item[]): Group[] {
  const out: Group[] = [];
  for (const it of items) {
    if (it.kind === 'split') {
      out.push({ kind: 'split', old: it.old });
      continue;
    }
    const last = out[out.length - 1];
    if (last && last.kind !== 'split' && last.kind === it.kind && sameWraps(last.wraps, it.wraps)) last.nodes.push(it.node);
    else out.push({ kind: it.kind, nodes: [it.node], wraps: it.wraps });
  }
  return out;
}

function sameWraps(a: readonly XmlElement[], b: readonly XmlElement[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Their wrappers (tracked changes of newer, in the base view) put back around content, as copies. */
function rewrap(wraps: readonly XmlElement[], nodes: XmlNode[]): XmlNode[] {
  let out = nodes;
  for (let i = wraps.length - 1; i >= 0; i--) {
    const w = wraps[i]!.cloneShallow();
    // A content control keeps its properties (its content element is the next wrapper).
    if (w.name === 'w:sdt') for (const k of wraps[i]!.elements()) if (k.name !== 'w:sdtContent') w.append(k.cloneDeep());
    for (const n of out) w.append(n);
    out = [w];
  }
  return out;
}

function textElement(name: string, text: string): XmlElement {
  return XmlElement.create(name, { 'xml:space': 'preserve' }, [new XmlText(text)]);
}

/** Paragraph properties of an older paragraph put into newer: no section break, no change record, no mark revision. */
export function cleanParagraphProperties(pPr: XmlElement): XmlElement {
  for (const c of pPr.elements()) {
    if (c.name === 'w:sectPr' || c.name === 'w:pPrChange') pPr.setChildren(pPr.children.filter((k) => k !== c));
  }
  const rPr = pPr.first('w:rPr');
  if (rPr) rPr.setChildren(rPr.children.filter((k) => !(k.kind === 1 && RPR_RECORDS.has(k.name))));
  return pPr;
}

/** Text becomes deleted text: w:t -> w:delText, w:instrText -> w:delInstrText (not inside a text box's own paragraphs). */
export function toDeletedText(el: XmlElement): void {
  walk(el, (e) => {
    if (e.name === 'w:txbxContent') return false;
    if (e.name === 'w:t') rename(e, 'w:delText');
    else if (e.name === 'w:instrText') rename(e, 'w:delInstrText');
    return true;
  });
}

function rename(el: XmlElement, name: string): void {
  el.name = name;
  el.dirty = false;
  markDirty(el);
}

/**
 * A copy of an older paragraph turned into deleted content in place: its content wrapped in
 * one `w:del` (or `w:moveFrom`), hyperlinks and simple fields wrapped inside.
 */
export function deleteParagraphContent(p: XmlElement, rw: RevisionWriter, wrapper: 'w:del' | 'w:moveFrom'): void {
  const pPr = p.first('w:pPr');
  if (pPr) cleanParagraphProperties(pPr);
  const out: XmlNode[] = pPr ? [pPr] : [];
  let run: XmlNode[] = [];
  const flush = (): void => {
    if (run.length) out.push(rw.element(wrapper, run));
    run = [];
  };
  for (const c of [...p.children]) {
    if (c === pPr) continue;
    if (c.kind !== 1) continue;
    toDeletedText(c);
    if (WRAPPED_INSIDE.has(c.name)) {
      flush();
      c.setChildren([rw.element(wrapper, [...c.children])]);
      out.push(c);
    } else run.push(c);
  }
  flush();
  p.setChildren(out);
}

/** Adds a w:pPrChange recording `oldP`'s paragraph properties to newer's paragraph `p`; returns it (null if `p` had one). */
export function recordParagraphProperties(p: XmlElement, oldP: XmlElement, rw: RevisionWriter): XmlElement | null {
  let pPr = p.first('w:pPr');
  if (pPr?.first('w:pPrChange')) return null;
  const old = XmlElement.create(
    'w:pPr',
    {},
    (oldP.first('w:pPr')?.elements() ?? []).filter((c) => !PPR_NOT_COMPARED.has(c.name)).map((c) => c.cloneDeep()),
  );
  if (!pPr) {
    pPr = XmlElement.create('w:pPr');
    p.insertAt(0, pPr);
  }
  const change = rw.element('w:pPrChange', [old]);
  insertProperty(pPr, change);
  return change;
}

/** Marks a table row inserted or deleted (w:trPr/w:ins|w:del). */
export function markRow(tr: XmlElement, kind: 'ins' | 'del', rw: RevisionWriter): void {
  let trPr = tr.first('w:trPr');
  if (!trPr) {
    trPr = XmlElement.create('w:trPr');
    const ex = tr.first('w:tblPrEx');
    tr.insertAt(ex ? tr.children.indexOf(ex) + 1 : 0, trPr);
  }
  // A row newer deleted may still be one the comparison finds inserted (a row both inserted and deleted is valid).
  if (trPr.first(`w:${kind}`)) return;
  insertProperty(trPr, rw.element(`w:${kind}`));
}

/** Marks a table cell inserted or deleted (w:tcPr/w:cellIns|w:cellDel). */
export function markCell(tc: XmlElement, kind: 'cellIns' | 'cellDel', rw: RevisionWriter): void {
  let tcPr = tc.first('w:tcPr');
  if (!tcPr) {
    tcPr = XmlElement.create('w:tcPr');
    tc.insertAt(0, tcPr);
  }
  insertProperty(tcPr, rw.element(`w:${kind}`));
}

/**
 * Adds to newer's table, row or cell (`owner`) a w:tblPrChange, w:trPrChange or w:tcPrChange
 * holding older's formatting (`oldOwner`'s properties without their change records and inserted
 * or deleted marks), as Word writes them: rejecting it restores older's formatting.
 */
export function recordTableProperties(owner: XmlElement, oldOwner: XmlElement, holder: TableHolder, rw: RevisionWriter): void {
  let props = owner.first(holder);
  if (props?.first(`${holder}Change`)) return;
  const excluded = TABLE_NOT_FORMATTING[holder];
  const old = XmlElement.create(holder, {}, (oldOwner.first(holder)?.elements() ?? []).filter((c) => !excluded.has(c.name)).map((c) => c.cloneDeep()));
  if (!props) {
    props = XmlElement.create(holder);
    // w:tblPr and w:tcPr come first in their table or cell; w:trPr after the row's w:tblPrEx.
    const ex = holder === 'w:trPr' ? owner.first('w:tblPrEx') : null;
    owner.insertAt(ex ? owner.children.indexOf(ex) + 1 : 0, props);
  }
  insertProperty(props, rw.element(`${holder}Change`, [old]));
}

/**
 * After the text boxes of a drawing were marked up, the VML copy in its mc:Fallback still shows
 * newer's text without the changes: each of its text boxes takes a copy of the marked-up box of
 * the Choice (the engine decides a revision and its Fallback copy together). A Fallback whose
 * boxes do not correspond one to one is dropped, as Word drops it when it rewrites a drawing.
 */
function syncFallbacks(owner: XmlElement): void {
  const alternates: XmlElement[] = [];
  walk(owner, (e) => {
    if (e.name === 'mc:AlternateContent') alternates.push(e);
    return e.name !== 'w:txbxContent';
  });
  for (const alt of alternates) {
    const fallback = alt.first('mc:Fallback');
    const choice = alt.first('mc:Choice');
    if (!fallback || !choice) continue;
    const boxes = (root: XmlElement): XmlElement[] => {
      const out: XmlElement[] = [];
      walk(root, (e) => {
        if (e.name === 'w:txbxContent') {
          out.push(e);
          return false;
        }
        return true;
      });
      return out;
    };
    const marked = boxes(choice);
    const copies = boxes(fallback);
    if (marked.length !== copies.length) {
      alt.setChildren(alt.children.filter((c) => c !== fallback));
      continue;
    }
    copies.forEach((box, k) => box.setChildren(marked[k]!.children.map((c) => (c.kind === 1 ? c.cloneDeep() : c.kind === 2 ? new XmlText(c.text) : new XmlRaw(c.raw)))));
  }
}

/** Whether the block after paragraph `p` (joins.ts, blockAfter) is a table whose every row is marked inserted: rejected, it goes whole. */
function followerInserted(p: XmlElement): boolean {
  const next = blockAfter(p);
  if (next?.name !== 'w:tbl') return false;
  const rows = within(next, 'w:tr');
  return rows.length > 0 && rows.every((tr) => tr.first('w:trPr')?.first('w:ins') != null);
}
