import { serializeNode } from '../xml/serialize';
import { ancestor, type XmlElement, type XmlNode } from '../xml/tree';
import type { DecidedStories } from './decided';

/**
 * What the comparison sees of a story: its blocks (paragraphs and tables, content controls and
 * custom XML around blocks seen through), each with a key that is equal exactly when the
 * comparison would find nothing to mark; and, on demand, a paragraph's tokens.
 *
 * It reads a story without tracked changes: an input the engine accepted or rejected in place,
 * or, for the untracked check, the engine's decided copy of newer's story (decided.ts, see
 * StoryReader), whose view's joins, dropped rows and resolved properties are the engine's own.
 */
export type Block = Para | Table;

/** One stretch of a paragraph's content: a text element's text, or an atom or unit (one character in the flat text). */
export interface Segment {
  kind: 'text' | 'atom' | 'unit';
  node: XmlElement;
  run: XmlElement | null;
  start: number;
  text: string;
}

export interface Flat {
  text: string;
  segs: Segment[];
}

/**
 * Blocks, rows and cells carry a 53-bit hash of what the comparison sees of them (text, run
 * formatting, paragraph properties, atoms and units), equal exactly when nothing would be marked
 * (two different contents colliding is a 1 in 2^53 chance per pair). The diff runs on hashes: a
 * 300-page document's text is never copied into keys. The text key (`keyOf`), which similarity and
 * previews need, is made on demand for the few blocks that differ.
 */
export interface Para {
  kind: 'p';
  flat?: Flat;
  /** The paragraph read (in a decided copy, the copy's). */
  el: XmlElement;
  /**
   * The paragraphs of the story's own tree this paragraph of the view is made of, in order, the
   * last keeping the properties and the mark: one, except where a decided view joined paragraphs.
   */
  parts: XmlElement[];
  hash: number;
  /** Whether it holds a footnote or endnote reference. */
  notes: boolean;
  key?: string;
  tokens?: Token[];
}

export interface Table {
  kind: 'tbl';
  el: XmlElement;
  hash: number;
  notes: boolean;
  key?: string;
  rows: Row[];
}

export interface Row {
  el: XmlElement;
  hash: number;
  key?: string;
  cells: Cell[];
}

export interface Cell {
  el: XmlElement;
  hash: number;
  key?: string;
  blocks: Block[];
}

/** A stretch of a text element: a w:t of the story's own tree (read rejected, a w:delText there). */
export interface Piece {
  node: XmlElement;
  from: number;
  to: number;
}

/**
 * What the word diff compares: a word, a run of spaces or one punctuation character (`text`); a
 * run child that is not text, such as a tab, a break, a drawing or a note reference (`atom`); a
 * paragraph-level element compared as a whole, such as a hyperlink, a simple field, a content
 * control or an equation (`unit`); or a paragraph mark (`mark`, between the paragraphs of a group).
 */
export interface Token {
  kind: 'text' | 'atom' | 'unit' | 'mark';
  key: string;
  /** text: its pieces; atom: one piece whose node is the run child; unit and mark: none. */
  pieces: Piece[];
  /** unit: the paragraph-level element. */
  unit: XmlElement | null;
  /** The run (`w:r`) of the first piece, for text and atoms. */
  run: XmlElement | null;
  /** A mark token: the paragraph whose mark it is. */
  para: Para | null;
}

/** Resolves a relationship id of a part to something equal across packages (target and content). */
export type RelationshipKey = (rId: string) => string;

/** Run children that carry no content of their own: never compared, kept where they are. */
export const NEUTRAL_RUN_CHILDREN: ReadonlySet<string> = new Set([
  'w:rPr', 'w:lastRenderedPageBreak', 'w:commentReference', 'w:annotationRef', 'w:footnoteRef', 'w:endnoteRef',
  'w:separator', 'w:continuationSeparator', 'w:proofErr',
]);

/** Paragraph children that are markers, not content. */
const NEUTRAL_PARAGRAPH_CHILDREN = new Set([
  'w:pPr', 'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:proofErr',
  'w:permStart', 'w:permEnd', 'w:moveFromRangeStart', 'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd',
  'w:customXmlInsRangeStart', 'w:customXmlInsRangeEnd', 'w:customXmlDelRangeStart', 'w:customXmlDelRangeEnd',
]);

/**
 * Reads a story as the comparison sees it. A story without tracked changes (an input the engine
 * accepted or rejected in place) is read as it is. Newer's own story with its tracked changes
 * still in it (the untracked check) is read through `decided`, the engine's own decision of it
 * (decided.ts): the reader walks the decided copy, and everything it hands out (paragraphs,
 * tables, rows, cells, the nodes of segments and tokens) is the element of newer's own tree the
 * copy was made from, which is where the comparison writes its marks.
 */
export class StoryReader {
  /**
   * For each paragraph of a rejected view the engine joined backward (joins.ts, joinBackward: a
   * run of paragraphs whose marks went, before a table or at their container's end, took the
   * content of the paragraph before them, whose mark is in newer's tree but not in the view): that
   * run, the tail. Marks the comparison writes into a tail, or a table after it that it marks
   * inserted, change which mark that join takes on reject (Plan.settleBackwardJoin).
   */
  readonly backwardJoins: XmlElement[][] = [];

  constructor(
    private readonly rel: RelationshipKey,
    /** Atom and unit keys as private-use characters; shared by the two readers of a comparison. */
    private readonly symbols: Map<string, string>,
    /** What a numId of this reader's package means (numbering.ts); by default the id itself. */
    private readonly numbering: (numId: string) => string = (id) => id,
    /** The engine's decision of the package's stories, when they still hold tracked changes. */
    private readonly decided: DecidedStories | null = null,
    /** Where a token starting at `i` ends: a word, a run of spaces or a punctuation mark (tokenEnd), or one character (characterEnd). */
    private readonly tokenEndAt: (s: string, i: number, end: number) => number = tokenEnd,
  ) {}

  /** What the view reads for an element of the story's own tree. */
  private read(el: XmlElement): XmlElement {
    return this.decided ? this.decided.read(el) : el;
  }

  /** The element of the story's own tree that an element read was copied from (null: the engine made it). */
  private origin(el: XmlElement): XmlElement | null {
    return this.decided ? this.decided.origin(el) : el;
  }

  /** Run formatting as compared, in this view. */
  runKey(run: XmlElement): string {
    const read = this.read(run);
    // Asked for every token of a changed paragraph, so kept per run (only changed paragraphs' runs ask).
    let k = this.runKeys.get(read);
    if (k === undefined) {
      k = runPropertiesKey(read);
      this.runKeys.set(read, k);
    }
    return k;
  }
  private readonly runKeys = new WeakMap<XmlElement, string>();

  /** A hash of the run properties of a run read (as runKey), from their source text without copying it. */
  runHash(run: XmlElement): number {
    const rPr = run.first('w:rPr');
    const h = new KeyHash();
    if (!rPr) return h.value();
    for (const c of rPr.children) {
      if (c.kind !== 1 || RPR_NOT_FORMATTING.has(c.name)) continue;
      if (c.dirty) h.string(serializeNode(c));
      else h.range(c.src, c.start, c.end);
    }
    return h.value();
  }

  /** Paragraph properties as compared, in this view. */
  paragraphKey(p: XmlElement): string {
    return this.propertiesOfRead(this.read(p));
  }

  private propertiesOfRead(p: XmlElement): string {
    const key = paragraphPropertiesKey(p);
    // A list is compared by its definition, not by its id in this package's numbering part.
    return key.includes('<w:numId') ? key.replace(NUM_ID, (_m, id: string) => `<w:numId w:def="${this.numberingHash(id)}"/>`) : key;
  }

  /** A hash of what numId `id` means, once per id (a list definition runs to kilobytes; most paragraphs of a contract are numbered). */
  private numberingHash(id: string): number {
    let h = this.numberingHashes.get(id);
    if (h === undefined) this.numberingHashes.set(id, (h = hashOf(this.numbering(id))));
    return h;
  }
  private readonly numberingHashes = new Map<string, number>();

  /** Table, row or cell formatting as compared (`holder`: w:tblPr, w:trPr or w:tcPr of `owner`), in this view. */
  formattingKey(owner: XmlElement, holder: TableHolder): string {
    return propertiesKey(this.read(owner).first(holder), TABLE_NOT_FORMATTING[holder]);
  }

  // ---- blocks -------------------------------------------------------------------------------

  /** The blocks of a container of the story's own tree (a body, a cell, a note, a text box) as this view sees them. */
  blocks(container: XmlElement): Block[] {
    const out: Block[] = [];
    this.visitBlocks(this.read(container), out);
    return out;
  }

  /** Paragraphs and tables of a container read, content controls and custom XML around blocks seen through. */
  private visitBlocks(parent: XmlElement, out: Block[]): void {
    for (const c of parent.children) {
      if (c.kind !== 1) continue;
      if (c.name === 'w:p') {
        const para = this.paragraph(c);
        if (para) out.push(para);
      } else if (c.name === 'w:tbl') out.push(this.table(c));
      else if (c.name === 'w:sdt') {
        const content = c.first('w:sdtContent');
        if (content) this.visitBlocks(content, out);
      } else if (c.name === 'w:customXml') this.visitBlocks(c, out);
    }
  }

  private table(el: XmlElement): Table {
    const rows: Row[] = [];
    const th = new KeyHash();
    th.code(0x10);
    let notes = false;
    for (const tr of within(el, 'w:tr')) {
      const cells: Cell[] = [];
      const rh = new KeyHash();
      for (const tc of within(tr, 'w:tc')) {
        const blocks: Block[] = [];
        this.visitBlocks(tc, blocks);
        const ch = new KeyHash();
        for (const b of blocks) {
          ch.number(b.hash);
          notes ||= b.notes;
        }
        cells.push({ el: this.origin(tc) ?? tc, blocks, hash: ch.value() });
        rh.number(cells[cells.length - 1]!.hash);
      }
      rows.push({ el: this.origin(tr) ?? tr, cells, hash: rh.value() });
      th.number(rows[rows.length - 1]!.hash);
    }
    return { kind: 'tbl', el: this.origin(el) ?? el, rows, hash: th.value(), notes };
  }

  /** A paragraph of the view (`el`, read): its hash, from the same walk as its segments but without making them. */
  private paragraph(el: XmlElement): Para | null {
    const parts = this.partsOf(el);
    if (!parts.length) return null;
    const hasher = new ParagraphHasher(this);
    hasher.hash.string(this.propertiesOfRead(el));
    hasher.hash.code(2);
    this.inline(el, hasher);
    return { kind: 'p', el, parts, hash: hasher.hash.value(), notes: hasher.notes };
  }

  /**
   * The paragraphs of the story's own tree a paragraph of the view is made of: those the engine
   * joined into it (whose content it holds), then the one it was copied from, which keeps its
   * properties and mark (joins.ts: a join forward keeps the next paragraph's, one backward the
   * later one's; either way the content joined comes first). A paragraph the decision emptied
   * joins without a trace (nothing of it is in the view).
   */
  private partsOf(el: XmlElement): XmlElement[] {
    const own = this.origin(el);
    if (own === el) return [el];
    const parts: XmlElement[] = [];
    for (const c of el.children) {
      if (c.kind !== 1 || c.name === 'w:pPr') continue;
      const o = this.origin(c);
      const p = o && ancestor(o, 'w:p');
      if (p && p !== own && !parts.includes(p)) parts.push(p);
    }
    if (own) parts.push(own);
    this.noteBackwardJoin(parts);
    return parts;
  }

  /** Records the tail of a backward join among a rejected view paragraph's parts: those after the last one whose mark the view has. */
  private noteBackwardJoin(parts: readonly XmlElement[]): void {
    const decided = this.decided;
    if (decided?.view !== 'rejected' || parts.length < 2) return;
    for (let b = parts.length - 2; b >= 0; b--) {
      if (decided.markGone(parts[b]!)) continue;
      this.backwardJoins.push(parts.slice(b + 1));
      return;
    }
  }

  /** The text key of a block, row or cell (made once, on demand): what similarity compares. */
  keyOf(b: Block | Row | Cell): string {
    if (b.key !== undefined) return b.key;
    let key: string;
    if ('kind' in b && b.kind === 'p') {
      key = this.propertiesOfRead(b.el) + '\u0002';
      let fmt: string | null = null;
      for (const seg of this.segments(b)) {
        if (seg.kind === 'text') {
          const f = this.runKey(seg.run!);
          if (f !== fmt) {
            key += `\u0001${f}\u0001`;
            fmt = f;
          }
          key += seg.text;
        } else if (seg.kind === 'atom') key += `\u0003${this.atomKey(seg.node)}`;
        else {
          key += `\u0004${this.unitKey(seg.node)}`;
          fmt = null;
        }
      }
    } else if ('kind' in b) key = `\u0010${b.rows.map((r) => this.keyOf(r)).join('\u0006')}`;
    else if ('cells' in b) key = b.cells.map((c) => this.keyOf(c)).join('\u0005');
    else key = b.blocks.map((x) => this.keyOf(x)).join('\u0007');
    b.key = key;
    return key;
  }

  /**
   * The paragraph as one string, each atom and unit one private-use character standing for its
   * key, with the segment each stretch comes from: what prefix and suffix trimming work on.
   */
  flat(para: Para): Flat {
    if (para.flat) return para.flat;
    const segs = this.segments(para);
    let text = '';
    for (const seg of segs) {
      seg.start = text.length;
      if (seg.kind !== 'text') seg.text = this.symbol(seg.kind === 'atom' ? `\u0003${this.atomKey(seg.node, true)}` : `\u0004${this.unitKey(seg.node)}`);
      text += seg.text;
    }
    para.flat = { text, segs };
    return para.flat;
  }

  private symbol(key: string): string {
    let c = this.symbols.get(key);
    if (c === undefined) {
      c = this.symbols.size < SYMBOL_COUNT ? String.fromCharCode(SYMBOL_BASE + this.symbols.size) : OVERFLOW_SYMBOL;
      this.symbols.set(key, c);
    }
    return c;
  }

  /** The tokens of the paragraph whose characters lie in [from, to) of its flat text (all by default). */
  tokens(para: Para, from = 0, to = Infinity): Token[] {
    const whole = from === 0 && to === Infinity;
    if (whole && para.tokens) return para.tokens;
    const { text, segs } = this.flat(para);
    const end = Math.min(to, text.length);
    const out: Token[] = [];
    let k = 0;
    let i = from;
    while (i < end) {
      while (k < segs.length && segs[k]!.start + segs[k]!.text.length <= i) k++;
      const seg = segs[k]!;
      if (seg.kind === 'unit') {
        out.push({ kind: 'unit', key: `\u0004${this.unitKey(seg.node)}`, pieces: [], unit: seg.node, run: null, para: null });
        i++;
        continue;
      }
      if (seg.kind === 'atom') {
        out.push({ kind: 'atom', key: `\u0003${this.atomKey(seg.node, true)}`, pieces: [{ node: seg.node, from: 0, to: 0 }], unit: null, run: seg.run, para: null });
        i++;
        continue;
      }
      // Text: the token may run on over following text segments (a word split over runs).
      let j = this.tokenEndAt(text, i, end);
      let stop = k;
      while (stop + 1 < segs.length && segs[stop]!.start + segs[stop]!.text.length < j) {
        if (segs[stop + 1]!.kind !== 'text') {
          j = segs[stop + 1]!.start;
          break;
        }
        stop++;
      }
      const pieces: Piece[] = [];
      for (let q = k; q <= stop; q++) {
        const sg = segs[q]!;
        const a = Math.max(i, sg.start) - sg.start;
        const b = Math.min(j, sg.start + sg.text.length) - sg.start;
        if (b > a) pieces.push({ node: sg.node, from: a, to: b });
      }
      out.push({ kind: 'text', key: text.slice(i, j), pieces, unit: null, run: seg.run, para: null });
      i = j;
    }
    if (whole) para.tokens = out;
    return out;
  }

  /** The content of a paragraph of the view in order, its nodes those of the story's own tree. */
  private segments(para: Para): Segment[] {
    const sink = new SegmentList((el) => this.origin(el) ?? el);
    this.inline(para.el, sink);
    return sink.segs;
  }

  /** Walks the content of a paragraph read, in order: text, atoms and units. */
  private inline(parent: XmlElement, sink: InlineSink): void {
    for (const c of parent.children) {
      if (c.kind !== 1 || NEUTRAL_PARAGRAPH_CHILDREN.has(c.name)) continue;
      if (c.name === 'w:r') {
        for (const k of c.children) {
          if (k.kind !== 1 || NEUTRAL_RUN_CHILDREN.has(k.name)) continue;
          if (k.name === 'w:t') {
            const text = elementText(k);
            if (text) sink.add('text', k, c, text);
          } else sink.add('atom', k, c, '');
        }
      } else sink.add('unit', c, null, '');
    }
  }

  /** A run child compared as one token: its name and what it holds, relationship ids resolved. */
  /**
   * `withoutBoxes`: the key without what text boxes hold (and without the mc:Fallback copy), so a
   * drawing or shape whose text box text changed still pairs with its older self and the text
   * box is compared word by word (see StoryComparison.pairTextBoxes). The paragraph's hash uses
   * the whole key, so the paragraph is still seen to differ.
   */
  atomKey(el: XmlElement, withoutBoxes = false): string {
    switch (el.name) {
      case 'w:tab':
      case 'w:cr':
      case 'w:noBreakHyphen':
      case 'w:softHyphen':
        return el.name;
      case 'w:br':
        return `w:br ${el.attr('w:type') ?? ''}`;
      case 'w:fldChar':
        return `w:fldChar ${el.attr('w:fldCharType') ?? ''}`;
      case 'w:instrText':
      case 'w:delInstrText':
        return `instr ${elementText(el)}`;
      case 'w:footnoteReference':
      case 'w:endnoteReference':
        return el.name;
      default: {
        const key = this.unitKey(el);
        return withoutBoxes && key.includes('<w:txbxContent') ? key.replace(FALLBACK, '').replace(TEXT_BOX_CONTENT, '<w:txbxContent/>') : key;
      }
    }
  }

  /** Serialised XML without the attributes that differ between saves of the same content. */
  unitKey(el: XmlElement): string {
    return serializeNode(this.read(el))
      .replace(VOLATILE_ATTRIBUTES, '')
      .replace(RELATIONSHIP_ATTRIBUTES, (_m, name: string, id: string) => ` ${name}="${this.rel(id)}"`);
  }
}

const FALLBACK = /<mc:Fallback\b[^>]*>[\s\S]*?<\/mc:Fallback>/g;
const TEXT_BOX_CONTENT = /<w:txbxContent\b[^>]*>[\s\S]*?<\/w:txbxContent>/g;

/** The text box contents an atom holds (not those of an mc:Fallback copy), in order. */
export function textBoxesOf(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (e: XmlElement): void => {
    for (const c of e.children) {
      if (c.kind !== 1 || c.name === 'mc:Fallback') continue;
      if (c.name === 'w:txbxContent') out.push(c);
      else visit(c);
    }
  };
  visit(el);
  return out;
}

const SYMBOL_BASE = 0xe000;
const SYMBOL_COUNT = 0x1800;
/** Stands for every atom or unit beyond the private-use range: never taken as equal (see the trimming in story.ts). */
export const OVERFLOW_SYMBOL = '\uf8ff';

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const SPACE_CHAR = /\s/;

/** Whether the character at `i` belongs to a word (letters, digits, marks, underscore; not a private-use symbol). */
export function isWordAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  if (c >= SYMBOL_BASE && c <= 0xf8ff) return false;
  if (c >= 0xd800 && c <= 0xdbff) return WORD_CHAR.test(s.slice(i, i + 2));
  return WORD_CHAR.test(s[i]!);
}

export function isSpaceAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return SPACE_CHAR.test(s[i]!);
}

/**
 * End of the token starting at `i`: a word (letters and digits, with inner apostrophes), a run of
 * white space, or any other single character. Punctuation and spaces are tokens of their own.
 */
export function tokenEnd(s: string, i: number, end: number): number {
  if (isSpaceAt(s, i)) {
    let j = i + 1;
    while (j < end && isSpaceAt(s, j)) j++;
    return j;
  }
  if (isWordAt(s, i)) {
    let j = i + 1;
    for (;;) {
      while (j < end && (isWordAt(s, j) || isLowSurrogate(s, j))) j++;
      const c = s.charCodeAt(j);
      if (j + 1 < end && (c === 39 || c === 0x2019) && isWordAt(s, j + 1)) j++;
      else return j;
    }
  }
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < end ? i + 2 : i + 1;
}

/** End of the one-character token at `i` (a surrogate pair is one character): the diff's character granularity. */
export function characterEnd(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < end ? i + 2 : i + 1;
}

function isLowSurrogate(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
}

const VOLATILE_ATTRIBUTES = / (?:w:rsid\w*|w14:paraId|w14:textId|wp14:anchorId|wp14:editId|w:id|id|w:name|name)="[^"]*"/g;
const RELATIONSHIP_ATTRIBUTES = / (r:(?:id|embed|link|pict|dm|lo|qs|cs|href))="([^"]*)"/g;

export function elementText(el: XmlElement): string {
  let s = '';
  for (const c of el.children) if (c.kind === 2) s += c.text;
  return s;
}

/** Run formatting as compared: the run properties without tracked-change records. */
export function runPropertiesKey(run: XmlElement): string {
  return propertiesKey(run.first('w:rPr'), RPR_NOT_FORMATTING);
}
const RPR_NOT_FORMATTING = new Set(['w:rPrChange', 'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);

/** Paragraph properties as compared: without the mark's run properties, section or change records. */
export function paragraphPropertiesKey(p: XmlElement): string {
  return propertiesKey(p.first('w:pPr'), PPR_NOT_COMPARED);
}
export const PPR_NOT_COMPARED = new Set(['w:rPr', 'w:sectPr', 'w:pPrChange']);

export type TableHolder = 'w:tblPr' | 'w:trPr' | 'w:tcPr';
/** What table, row and cell properties hold besides formatting: change records, inserted and deleted rows and cells. */
export const TABLE_NOT_FORMATTING: Record<TableHolder, ReadonlySet<string>> = {
  'w:tblPr': new Set(['w:tblPrChange']),
  'w:trPr': new Set(['w:ins', 'w:del', 'w:trPrChange']),
  'w:tcPr': new Set(['w:cellIns', 'w:cellDel', 'w:cellMerge', 'w:tcPrChange']),
};

function propertiesKey(holder: XmlElement | null, excluded: ReadonlySet<string>): string {
  if (!holder) return '';
  let s = '';
  for (const c of holder.children) {
    if (c.kind !== 1 || excluded.has(c.name)) continue;
    // An untouched property is its source text (a slice, no copy).
    s += c.dirty ? serializeNode(c) : c.src.slice(c.start, c.end);
  }
  return s;
}

/** Children named `name`, seen through content controls and custom XML (rows of a table, cells of a row). */
export function within(e: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of e.children) {
    if (c.kind !== 1) continue;
    if (c.name === name) out.push(c);
    else if (c.name === 'w:sdt') out.push(...within(c.first('w:sdtContent') ?? c, name));
    else if (c.name === 'w:customXml') out.push(...within(c, name));
  }
  return out;
}

/** Visible text of tokens, for previews and move detection. */
export function tokensText(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) {
    if (t.kind === 'text') s += t.key;
    else if (t.kind === 'mark') s += '\n';
    else if (t.key === '\u0003w:tab') s += '\t';
  }
  return s;
}

export type { XmlNode };

/** What the walk over a paragraph's content reports to (objects, not closures: a 300-page document has many paragraphs). */
interface InlineSink {
  add(kind: Segment['kind'], node: XmlElement, run: XmlElement | null, text: string): void;
}

/** Collects the segments of a paragraph read, each node and run given as the story's own (`own`). */
class SegmentList implements InlineSink {
  readonly segs: Segment[] = [];
  constructor(private readonly own: (el: XmlElement) => XmlElement) {}
  add(kind: Segment['kind'], node: XmlElement, run: XmlElement | null, text: string): void {
    this.segs.push({ kind, node: this.own(node), run: run && this.own(run), start: 0, text });
  }
}

/** Hashes a paragraph's content as its text key would read (formatting where it changes, text, atoms, units). */
class ParagraphHasher implements InlineSink {
  readonly hash = new KeyHash();
  notes = false;
  private fmt = -1;
  constructor(private readonly reader: StoryReader) {}

  add(kind: Segment['kind'], node: XmlElement, run: XmlElement | null, text: string): void {
    const h = this.hash;
    if (kind === 'text') {
      const f = this.reader.runHash(run!);
      if (f !== this.fmt) {
        h.code(1);
        h.number(f);
        this.fmt = f;
      }
      h.string(text);
    } else if (kind === 'atom') {
      h.code(3);
      h.string(this.reader.atomKey(node));
      if (node.name === 'w:footnoteReference' || node.name === 'w:endnoteReference') this.notes = true;
    } else {
      h.code(4);
      h.string(this.reader.unitKey(node));
      this.fmt = -1;
    }
  }
}

const NUM_ID = /<w:numId w:val="([^"]*)"\s*\/>/g;

function hashOf(s: string): number {
  const h = new KeyHash();
  h.string(s);
  return h.value();
}

/** Two 32-bit multiplicative hashes of a character stream, read as one 53-bit number. */
class KeyHash {
  private a = 0x811c9dc5;
  private b = 0x3c6ef372;

  code(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul((this.b ^ c) + 0x9e3779b9, 0x85ebca6b);
  }

  range(s: string, from: number, to: number): void {
    let a = this.a;
    let b = this.b;
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul((b ^ c) + 0x9e3779b9, 0x85ebca6b);
    }
    this.a = a;
    this.b = b;
  }

  string(s: string): void {
    this.range(s, 0, s.length);
    this.code(0xffff); // the end of a string: "ab"+"c" and "a"+"bc" differ
  }

  number(x: number): void {
    this.code(x % 65536);
    this.code(Math.floor(x / 65536) % 65536);
    this.code(Math.floor(x / 4294967296) % 65536);
    this.code(Math.floor(x / 281474976710656));
  }

  value(): number {
    const b = this.b ^ (this.b >>> 15);
    return ((this.a >>> 0) & 0x1fffff) * 4294967296 + (Math.imul(b, 0x2c1b3c6d) >>> 0);
  }
}
