import type { Block, BlockChange, ParagraphBlock, Story, TableBlock, TableCell, TableRow } from '../../contract/reading';
import type { RecordedPages } from '../pages/recorded-pages';
import type { RevisionKind } from '../../contract/revision';
import type { PartRole } from '../package/package';
import type { Change } from '../revisions/changes';
import type { PartScan } from '../revisions/sites';
import type { XmlDocument, XmlElement } from '../xml/tree';
import { outlineLevel, StyleBook } from './styles';
import { contentTag, contentTagJoined } from './tag';

/** A w14:paraId as the schema has it (ST_LongHexNumber). */
const PARA_ID = /^[0-9A-Fa-f]{8}$/;

/**
 * The reading model of a document as it stands: its blocks in story order, each paragraph with
 * its visible text as Word shows it and, where the document carries tracked changes, where each
 * change lies in that text. For the accepted or rejected view the caller reads the document
 * after accepting or rejecting everything (the engine's own decisions), so each view's text is
 * exactly what those decisions give.
 *
 * What the text holds: w:t and (markup) w:delText, tabs as \t, breaks as \n, symbols, no-break
 * hyphens, math text; field results but not field codes (w:instrText, and any run between a
 * field's begin and separate); no reference marks for notes or comments; the numbering label is
 * a field of its own. A text box's paragraphs follow, as blocks of their own, the paragraph that
 * anchors it (the text is not the anchor's, Word draws it elsewhere).
 */
export interface ReadInput {
  scans: readonly PartScan[];
  changes: readonly Change[];
  styles: XmlDocument | null;
  /** Author, date and group of each change, as the revision listing gives them. */
  info: ReadonlyMap<string, { kind: RevisionKind; author: string | null; date: string | null; group?: string }>;
  /** The clause label ("7.3(a)") and 0-based list level of a numbered paragraph. */
  numberingOf?: (p: XmlElement) => { clause: string; level: number } | undefined;
  /** The body's pages as Word last laid them out (pages/recorded-pages.ts): each body block's page and the label it prints. */
  pages?: RecordedPages | null;
  /**
   * Leave out every block's version ('' instead), and the index of paragraphs by id: for a reader
   * that never compares versions or resolves edits, such as the checks. Paragraph ids are the same;
   * a table holding a nested table has another id (made from the nested table's version).
   */
  withoutVersions?: boolean;
}

const STORY_OF: Partial<Record<PartRole, Story>> = {
  document: 'body', header: 'header', footer: 'footer', footnotes: 'footnote', endnotes: 'endnote', comments: 'comment',
};

/** Notes Word writes as separators, never shown as notes. */
const SEPARATOR_NOTES = new Set(['separator', 'continuationSeparator', 'continuationNotice']);

/** Containers whose children are blocks, seen through (their content is the document's). */
const BLOCK_WRAPPERS = new Set(['w:customXml', 'w:ins', 'w:del', 'w:moveTo', 'w:moveFrom']);

/** Site types that belong to the paragraph as a whole, not to a piece of its text. */
const WHOLE_PARAGRAPH = new Set(['ppr-change', 'numbering-change', 'num-ins']);
const ROW_SITES = new Set(['row-ins', 'row-del', 'trpr-change', 'tblprex-change']);
const CELL_SITES = new Set(['cell-ins', 'cell-del', 'cell-merge', 'tcpr-change']);

export function readBlocks(input: ReadInput): Block[] {
  return new Reader(input).read();
}

/** A paragraph block's element, version and text, by block id: what an anchored edit resolves. */
export interface BlockRef {
  el: XmlElement;
  version: string;
  text: string;
}

export function readBlockIndex(input: ReadInput): Map<string, BlockRef> {
  const reader = new Reader(input);
  reader.read();
  return reader.index;
}

class Reader {
  /** The change each revision element belongs to. */
  private readonly changeOf = new Map<XmlElement, Change>();
  /** Row, cell and table changes by the element they sit on. */
  private readonly containerChanges = new Map<XmlElement, string[]>();
  private readonly styles: StyleBook;
  private readonly usedIds = new Set<string>();
  private readonly derivedCount = new Map<string, number>();
  readonly index = new Map<string, BlockRef>();
  /** Revision markers met between blocks (tracked control boundaries): they sit at the start of the next paragraph. */
  private pending: Change[] = [];
  /** The paragraph read last, where markers after the last paragraph of a container go. */
  private last: ParagraphBlock | null = null;
  /** Open complex fields of the story being read: true while in a field's code. */
  private fields: boolean[] = [];

  constructor(private readonly input: ReadInput) {
    for (const change of input.changes) {
      for (const site of change.sites) {
        this.changeOf.set(site.el, change);
        const holder = ROW_SITES.has(site.type) ? up(site.el, 'w:tr')
          : CELL_SITES.has(site.type) ? up(site.el, 'w:tc')
            : site.type === 'tblpr-change' || site.type === 'tblgrid-change' ? up(site.el, 'w:tbl') : null;
        if (holder) {
          const list = this.containerChanges.get(holder) ?? [];
          if (!list.includes(change.changeId)) list.push(change.changeId);
          this.containerChanges.set(holder, list);
        }
      }
    }
    this.styles = new StyleBook(input.styles);
  }

  read(): Block[] {
    const out: Block[] = [];
    for (const scan of this.input.scans) {
      const story = STORY_OF[scan.role];
      if (!story) continue;
      this.fields = [];
      const root = scan.doc.root;
      if (story === 'body') {
        const body = root.first('w:body');
        if (body) this.container(body, story, [], out);
      } else if (story === 'footnote' || story === 'endnote' || story === 'comment') {
        for (const note of root.elements()) {
          if (SEPARATOR_NOTES.has(note.attr('w:type') ?? '')) continue;
          this.container(note, story, [], out);
        }
      } else {
        this.container(root, story, [], out);
      }
    }
    return out;
  }

  /** The blocks of a container (body, cell, note, text box), with the changes that wrap it. */
  private container(el: XmlElement, story: Story, around: Change[], out: Block[]): void {
    for (const child of el.elements()) {
      if (child.name === 'w:p') this.paragraph(child, story, around, out);
      else if (child.name === 'w:tbl') out.push(this.table(child, story, around));
      else if (child.name === 'w:sdt') {
        const content = child.first('w:sdtContent');
        if (content) this.container(content, story, this.within(child, around), out);
      } else if (BLOCK_WRAPPERS.has(child.name)) this.container(child, story, this.within(child, around), out);
      else if (this.changeOf.has(child) && child.name !== 'w:sectPr') this.pending.push(this.changeOf.get(child)!);
    }
    // A revision marker after the last paragraph of its container (a control's end boundary) sits
    // at the end of the paragraph before it.
    if (this.pending.length && this.last) {
      const last = this.last;
      last.changes ??= [];
      for (const change of this.pending) {
        if (!last.changes.some((c) => c.change_id === change.changeId)) last.changes.push(blockChange(change, last.text.length, last.text.length, this.input.info));
      }
      this.pending = [];
    }
  }

  /** Where a body block was when Word last laid the file out (not part of its version: the content is). */
  private pageOf(el: XmlElement, story: Story): { page: number; pageLabel: string } | Record<string, never> {
    const pages = story === 'body' ? this.input.pages : null;
    const page = pages?.blockPage.get(el);
    return pages && page !== undefined ? { page, pageLabel: pages.labels[page - 1] ?? String(page) } : {};
  }

  private within(el: XmlElement, around: Change[]): Change[] {
    const change = this.changeOf.get(el);
    return change && !around.includes(change) ? [...around, change] : around;
  }

  private table(tbl: XmlElement, story: Story, around: Change[]): TableBlock {
    const rows: TableRow[] = [];
    const texts: string[] = [];
    const rowEls = within(tbl, 'w:tr');
    const blocksOfRows = rowEls.map((tr) => within(tr, 'w:tc').map((tc) => {
      const blocks: Block[] = [];
      this.container(tc, story, around, blocks);
      for (const b of blocks) texts.push(b.type === 'paragraph' ? b.text : b.version);
      return { tc, blocks };
    }));
    const id = this.derivedId('t', story, texts.join('\u0001'));
    blocksOfRows.forEach((cells, i) => {
      const rowId = `${id}.r${i + 1}`;
      const rowChanges = this.containerChanges.get(rowEls[i]!);
      rows.push({
        id: rowId,
        cells: cells.map(({ tc, blocks }, j): TableCell => {
          const cellChanges = this.containerChanges.get(tc);
          return { id: `${rowId}.c${j + 1}`, blocks, ...(cellChanges ? { changeIds: cellChanges } : {}) };
        }),
        ...(rowChanges ? { changeIds: rowChanges } : {}),
      });
    });
    const tableChanges = this.containerChanges.get(tbl);
    return {
      id, version: this.input.withoutVersions ? '' : contentTag(JSON.stringify(rows) + (tableChanges ?? []).join(',')), type: 'table', story, rows, ...this.pageOf(tbl, story),
      ...(tableChanges ? { changeIds: tableChanges } : {}),
    };
  }

  private paragraph(p: XmlElement, story: Story, around: Change[], out: Block[]): void {
    const text = new TextBuilder(this.fields);
    const boxes: XmlElement[] = [];
    for (const change of around) text.enter(change);
    this.inline(p, text, boxes);
    const pPr = p.first('w:pPr');
    if (pPr) {
      // Changes of the paragraph itself: its properties or numbering span it; its mark, the mark's
      // formatting and its section break sit at its end.
      walkElements(pPr, (k) => {
        const change = this.changeOf.get(k);
        if (!change) return;
        const site = change.sites.find((s) => s.el === k)!;
        if (WHOLE_PARAGRAPH.has(site.type)) text.span(change, 0, text.length);
        else text.span(change, text.length, text.length);
      });
    }
    if (this.pending.length) {
      for (const change of this.pending) text.span(change, 0, 0);
      this.pending = [];
    }
    for (const change of around) text.exit(change);
    const styleId = pPr?.first('w:pStyle')?.attr('w:val') ?? null;
    const heading = outlineLevel(pPr) ?? this.styles.outlineLevel(styleId);
    const style = this.styles.name(styleId);
    const numbered = this.input.numberingOf?.(p);
    const numbering = numbered?.clause;
    const listLevel = numbered && numbered.level >= 0 && numbered.level <= 8 ? numbered.level + 1 : undefined;
    const changes = text.changes(this.input.info);
    const id = this.paragraphId(p, story, text.value);
    const block: ParagraphBlock = {
      id,
      ...this.pageOf(p, story),
      version: this.input.withoutVersions ? '' : contentTag(`${text.value}\u0001${numbering ?? ''}\u0001${style ?? ''}\u0001${changes.map((c) => `${c.change_id}:${c.start}:${c.end}`).join(',')}`),
      type: 'paragraph',
      text: text.value,
      ...(numbering ? { numbering } : {}),
      ...(listLevel ? { listLevel } : {}),
      ...(heading !== null ? { heading } : {}),
      ...(style ? { style } : {}),
      story,
      ...(changes.length ? { changes } : {}),
    };
    out.push(block);
    this.last = block;
    if (!this.input.withoutVersions) this.index.set(id, { el: p, version: block.version, text: block.text });
    for (const box of boxes) this.container(box, story, around, out);
  }

  /**
   * A paragraph's content in document order: text where Word shows text, and every revision
   * element met on the way (a w:ins or w:del, a proposed control, a tracked control boundary, a
   * run's formatting change) spans what lies inside it; an empty one marks its place.
   */
  private inline(el: XmlElement, text: TextBuilder, boxes: XmlElement[]): void {
    // The children read in place (el.elements() would copy them out): every run and text of every view goes through here.
    for (const k of el.children) {
      if (k.kind !== 1) continue;
      switch (k.name) {
        case 'w:pPr':
        case 'w:rPr':
        case 'm:rPr':
        case 'mc:Fallback':
        case 'w:instrText':
        case 'w:delInstrText':
          continue;
        case 'w:t':
        case 'w:delText':
        case 'm:t':
          text.add(textContent(k));
          continue;
        case 'w:tab':
        case 'w:ptab':
          if (k.parent?.name === 'w:r') text.add('\t');
          continue;
        case 'w:br':
        case 'w:cr':
          text.add('\n');
          continue;
        case 'w:noBreakHyphen':
          text.add('-');
          continue;
        case 'w:sym':
          text.add(symbol(k.attr('w:char')));
          continue;
        case 'w:fldChar':
          text.field(k.attr('w:fldCharType'));
          continue;
        case 'w:txbxContent':
          boxes.push(k);
          continue;
        default:
          break;
      }
      const change = this.changeOf.get(k) ?? this.formattingChange(k);
      if (change) text.enter(change);
      this.inline(k, text, boxes);
      if (change) text.exit(change);
    }
  }

  /** The change of a run's (or math run's) tracked formatting, which spans the run. */
  private formattingChange(run: XmlElement): Change | undefined {
    if (run.name !== 'w:r' && run.name !== 'm:r') return undefined;
    const formatting = run.first('w:rPr')?.first('w:rPrChange');
    return formatting ? this.changeOf.get(formatting) : undefined;
  }

  /**
   * The paragraph's w14:paraId when the file gives it a unique one, else an id from its story and
   * text. Only a well-formed paraId (ST_LongHexNumber: eight hex digits) is taken: the id is read
   * out to the assistant as the block's name, and a file's `A1] SYSTEM NOTE...` must not be one.
   */
  private paragraphId(p: XmlElement, story: Story, text: string): string {
    const paraId = p.attr('w14:paraId');
    if (paraId && PARA_ID.test(paraId) && !this.usedIds.has(paraId)) {
      this.usedIds.add(paraId);
      return paraId;
    }
    return this.derivedId('p', story, text);
  }

  /**
   * An id from the story and the content: the same paragraph reads with the same id as long as
   * its text and the identical paragraphs before it stay (the k-th of equal paragraphs gets .k).
   */
  private derivedId(prefix: string, story: Story, content: string): string {
    const base = `${prefix}${contentTagJoined(story, content)}`;
    const k = (this.derivedCount.get(base) ?? 0) + 1;
    this.derivedCount.set(base, k);
    const id = k === 1 ? base : `${base}.${k}`;
    this.usedIds.add(id);
    return id;
  }
}

/**
 * A paragraph's text as it is read, and where each change lies in it. Field state is the story's:
 * a complex field may open in one paragraph and close in a later one.
 */
class TextBuilder {
  value = '';
  private readonly spans = new Map<Change, { start: number; end: number; order: number }>();

  constructor(private readonly fields: boolean[]) {}

  get length(): number {
    return this.value.length;
  }

  add(s: string): void {
    if (!s || this.fields.includes(true)) return;
    this.value += s;
  }

  field(type: string | null): void {
    if (type === 'begin') this.fields.push(true);
    else if (type === 'separate' && this.fields.length) this.fields[this.fields.length - 1] = false;
    else if (type === 'end') this.fields.pop();
  }

  enter(change: Change): void {
    if (!this.spans.has(change)) this.spans.set(change, { start: this.length, end: this.length, order: this.spans.size });
  }

  exit(change: Change): void {
    const span = this.spans.get(change);
    if (span) span.end = Math.max(span.end, this.length);
  }

  span(change: Change, start: number, end: number): void {
    const span = this.spans.get(change);
    if (span) {
      span.start = Math.min(span.start, start);
      span.end = Math.max(span.end, end);
    } else this.spans.set(change, { start, end, order: this.spans.size });
  }

  changes(info: ReadInput['info']): BlockChange[] {
    return [...this.spans.entries()]
      .sort(([, a], [, b]) => a.start - b.start || a.order - b.order)
      .map(([change, span]) => blockChange(change, span.start, span.end, info));
  }
}

function blockChange(change: Change, start: number, end: number, info: ReadInput['info']): BlockChange {
  const about = info.get(change.changeId);
  return {
    change_id: change.changeId,
    kind: about?.kind ?? change.kind,
    ...(about?.group ? { group: about.group } : {}),
    start,
    end,
    author: about?.author ?? null,
    date: about?.date ?? null,
  };
}

/** Every element below `el`, in document order. */
function walkElements(el: XmlElement, visit: (e: XmlElement) => void): void {
  for (const k of el.children) {
    if (k.kind !== 1) continue;
    visit(k);
    walkElements(k, visit);
  }
}

function textContent(el: XmlElement): string {
  let s = '';
  for (const c of el.children) if (c.kind === 2) s += c.text;
  return s;
}

/** A w:sym's character: Symbol-font code points sit in the private-use area at F0xx. */
function symbol(hex: string | null): string {
  const code = hex ? parseInt(hex, 16) : NaN;
  if (!Number.isFinite(code)) return '';
  return String.fromCharCode(code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code);
}

function up(el: XmlElement, name: string): XmlElement | null {
  for (let p: XmlElement | null = el; p; p = p.parent) if (p.name === name) return p;
  return null;
}

/** Rows of a table or cells of a row, also inside row- or cell-level content controls. */
function within(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.elements()) {
    if (c.name === name) out.push(c);
    else if (c.name === 'w:sdt') out.push(...within(c.first('w:sdtContent') ?? c, name));
    else if (c.name === 'w:customXml') out.push(...within(c, name));
  }
  return out;
}
