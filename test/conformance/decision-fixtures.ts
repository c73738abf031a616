/**
 * Generated documents combining the constructs that make selective decisions hard (issue 11):
 * tables with inserted/deleted rows and cells, cell property changes whose old w:tcPr holds its
 * own w:cellIns/w:cellDel, row property changes whose old w:trPr holds w:ins/w:del, moves whose
 * halves sit in rows, cells and paragraphs decided separately, paragraph marks (inserted and
 * deleted) next to empty paragraphs, insertions holding deletions (and moves holding either),
 * paragraph-mark formatting changes whose old w:rPr holds a mark revision, paragraph property
 * changes, and numbering changes. Written as raw WordprocessingML, so every shape Word writes
 * (and the fixture builder does not) can be made; seeded, so a failing seed reproduces.
 */
import { Prng } from '../../src/docx/fixture/prng';
import { minimalDocx } from '../support/docx-files';

/** Construct names, counted by the long run (bench/decisions.ts) to say what it covered. */
export type Construct =
  | 'insertion' | 'deletion' | 'deletion-in-insertion' | 'format-change' | 'move' | 'move-in-table' | 'lone-move-half'
  | 'mark-insertion' | 'mark-deletion' | 'empty-paragraph' | 'mark-format-change-holding-mark' | 'paragraph-property-change'
  | 'numbering-change' | 'numbering-insertion' | 'table' | 'row-insertion' | 'row-deletion' | 'row-property-change-holding-mark'
  | 'cell-insertion' | 'cell-deletion' | 'cell-property-change-holding-cell-mark' | 'revision-in-changed-row'
  | 'block-revision' | 'control-boundary' | 'mark-at-control-end'
  | 'move-out-of-control' | 'move-into-control' | 'move-across-control-in-table' | 'move-of-whole-control'
  | 'moved-mark-joined-beside-move';

export interface GeneratedFixture {
  bytes: Uint8Array;
  constructs: Set<Construct>;
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'net 30', 'the Customer', 'shall', 'notice'];
const DATE = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';

class Writer {
  private id = 1;
  readonly constructs = new Set<Construct>();
  /** Move halves placed so far, by move number: the first of each direction is written as a move. */
  private readonly halves = new Map<number, Set<'from' | 'to'>>();
  private inTable = false;

  constructor(private readonly rng: Prng, private readonly moves: number) {}

  private next(): number {
    return this.id++;
  }

  private chance(p: number): boolean {
    return this.rng.next() < p;
  }

  private word(): string {
    return `${this.rng.pick(WORDS)} `;
  }

  private run(text: string, deleted = false): string {
    const tag = deleted ? 'w:delText' : 'w:t';
    return `<w:r><${tag} xml:space="preserve">${text}</${tag}></w:r>`;
  }

  private inline(): string {
    const roll = this.rng.int(0, 11);
    switch (roll) {
      case 0:
      case 1:
        this.constructs.add('insertion');
        return `<w:ins w:id="${this.next()}" ${DATE}>${this.run(this.word())}</w:ins>`;
      case 2:
      case 3:
        this.constructs.add('deletion');
        return `<w:del w:id="${this.next()}" ${DATE}>${this.run(this.word(), true)}</w:del>`;
      case 4:
        this.constructs.add('deletion-in-insertion');
        return `<w:ins w:id="${this.next()}" ${DATE}>${this.run(this.word())}<w:del w:id="${this.next()}" w:author="Bob" w:date="2025-01-02T00:00:00Z">${this.run(this.word(), true)}</w:del></w:ins>`;
      case 5:
        this.constructs.add('format-change');
        return `<w:r><w:rPr><w:b/><w:rPrChange w:id="${this.next()}" ${DATE}><w:rPr/></w:rPrChange></w:rPr><w:t xml:space="preserve">${this.word()}</w:t></w:r>`;
      case 6:
        if (this.moves > 0) return this.moveHalf();
        return this.run(this.word());
      default:
        return this.run(this.word());
    }
  }

  private moveHalf(): string {
    const n = this.rng.int(1, this.moves);
    const placed = this.halves.get(n) ?? new Set();
    this.halves.set(n, placed);
    const half: 'from' | 'to' = placed.has('from') ? 'to' : placed.has('to') ? 'from' : this.chance(0.5) ? 'from' : 'to';
    if (placed.has(half)) return this.run(this.word());
    placed.add(half);
    this.constructs.add(this.inTable ? 'move-in-table' : 'move');
    const name = `move${n}`;
    const range = this.next();
    const tag = half === 'from' ? 'moveFrom' : 'moveTo';
    // A nested revision inside a move half: Word writes these when moved text was edited.
    const nested = this.chance(0.3)
      ? half === 'from'
        ? `<w:ins w:id="${this.next()}" w:author="Bob" w:date="2025-01-02T00:00:00Z">${this.run('edited ')}</w:ins>`
        : `<w:del w:id="${this.next()}" w:author="Bob" w:date="2025-01-02T00:00:00Z">${this.run('edited ', true)}</w:del>`
      : '';
    return `<w:${tag}RangeStart w:id="${range}" ${DATE} w:name="${name}"/><w:${tag} w:id="${this.next()}" ${DATE}>${this.run(`moved${n} `, half === 'from')}${nested}</w:${tag}><w:${tag}RangeEnd w:id="${range}"/>`;
  }

  paragraph(): string {
    const empty = this.chance(0.3);
    if (empty) this.constructs.add('empty-paragraph');
    let content = '';
    if (!empty) for (let i = this.rng.int(1, 4); i > 0; i--) content += this.inline();
    let pPr = '';
    const numbering = this.rng.int(0, 9);
    if (numbering === 0) {
      this.constructs.add('numbering-change');
      pPr += `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/><w:numberingChange w:id="${this.next()}" ${DATE} w:original=""/></w:numPr>`;
    } else if (numbering === 1) {
      this.constructs.add('numbering-insertion');
      pPr += `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/><w:ins w:id="${this.next()}" ${DATE}/></w:numPr>`;
    }
    const reformatted = this.chance(0.15);
    if (reformatted) pPr += '<w:jc w:val="center"/>';
    const mark = this.rng.int(0, 5);
    let markRpr = '';
    if (mark === 0 || mark === 1) {
      this.constructs.add(mark === 0 ? 'mark-insertion' : 'mark-deletion');
      markRpr += `<w:${mark === 0 ? 'ins' : 'del'} w:id="${this.next()}" ${DATE}/>`;
    }
    if (this.chance(0.15)) {
      // The mark's formatting changed; Word also writes the mark revision inside the old w:rPr.
      this.constructs.add('mark-format-change-holding-mark');
      const inner = mark <= 1 ? `<w:${mark === 0 ? 'ins' : 'del'} w:id="${this.next()}" ${DATE}/>` : '';
      markRpr += `<w:b/><w:rPrChange w:id="${this.next()}" ${DATE}><w:rPr>${inner}</w:rPr></w:rPrChange>`;
    }
    if (markRpr) pPr += `<w:rPr>${markRpr}</w:rPr>`;
    if (reformatted) {
      this.constructs.add('paragraph-property-change');
      pPr += `<w:pPrChange w:id="${this.next()}" ${DATE}><w:pPr><w:jc w:val="left"/></w:pPr></w:pPrChange>`;
    }
    return `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${content}</w:p>`;
  }

  table(): string {
    this.constructs.add('table');
    const wasInTable = this.inTable;
    this.inTable = true;
    const columns = this.rng.int(1, 3);
    let rows = '';
    for (let r = this.rng.int(1, 3); r > 0; r--) {
      let trPr = '';
      const change = this.rng.int(0, 4);
      const marker = change === 0 ? 'ins' : change === 1 ? 'del' : null;
      if (marker) {
        this.constructs.add(marker === 'ins' ? 'row-insertion' : 'row-deletion');
        trPr += `<w:${marker} w:id="${this.next()}" ${DATE}/>`;
      }
      if (this.chance(0.25)) {
        this.constructs.add('row-property-change-holding-mark');
        trPr = `<w:cantSplit/>${trPr}<w:trPrChange w:id="${this.next()}" ${DATE}><w:trPr>${marker ? `<w:${marker} w:id="${this.next()}" ${DATE}/>` : ''}</w:trPr></w:trPrChange>`;
      }
      let cells = '';
      for (let c = 0; c < columns; c++) {
        let tcPr = '<w:tcW w:w="3000" w:type="dxa"/>';
        const cellChange = this.rng.int(0, 5);
        const cellMarker = cellChange === 0 ? 'cellIns' : cellChange === 1 ? 'cellDel' : null;
        if (cellMarker) {
          this.constructs.add(cellMarker === 'cellIns' ? 'cell-insertion' : 'cell-deletion');
          tcPr += `<w:${cellMarker} w:id="${this.next()}" ${DATE}/>`;
        }
        if (this.chance(0.3)) {
          // Word: the cell's previous properties, holding the cell's own insertion/deletion mark again.
          this.constructs.add('cell-property-change-holding-cell-mark');
          tcPr += `<w:tcPrChange w:id="${this.next()}" ${DATE}><w:tcPr><w:tcW w:w="9000" w:type="dxa"/>${cellMarker ? `<w:${cellMarker} w:id="${this.next()}" ${DATE}/>` : ''}</w:tcPr></w:tcPrChange>`;
        }
        let paragraphs = '';
        for (let k = this.rng.int(1, 2); k > 0; k--) paragraphs += this.paragraph();
        if ((marker || cellMarker) && /w:(ins|del|moveFrom|moveTo) /.test(paragraphs)) this.constructs.add('revision-in-changed-row');
        cells += `<w:tc><w:tcPr>${tcPr}</w:tcPr>${paragraphs}</w:tc>`;
      }
      rows += `<w:tr>${trPr ? `<w:trPr>${trPr}</w:trPr>` : ''}${cells}</w:tr>`;
    }
    this.inTable = wasInTable;
    const grid = Array.from({ length: columns }, () => '<w:gridCol w:w="3000"/>').join('');
    return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>${grid}</w:tblGrid>${rows}</w:tbl>`;
  }

  /** Lone halves (a move whose other half was never written) count as such. */
  finish(): void {
    for (const placed of this.halves.values()) if (placed.size === 1) this.constructs.add('lone-move-half');
  }
}

/**
 * Blocks Word's own writer does not make but other writers (and Word, for controls) do: a w:ins
 * or w:del around whole paragraphs at block level, and a block content control whose start and
 * end were inserted or deleted (w:customXml{Ins,Del}RangeStart), its last paragraph's mark
 * often tracked. Drawn from their own PRNG and ids (5000 up), so the rest of a seed's document
 * is what it was before they were added.
 */
class ExtraBlocks {
  private id = 5000;
  constructor(private readonly rng: Prng, private readonly constructs: Set<Construct>) {}

  private paragraph(deleted: boolean, mark: string): string {
    const words = ['alpha ', 'beta ', 'gamma '].slice(0, this.rng.int(0, 2));
    const runs = words.map((w) => (deleted ? `<w:r><w:delText xml:space="preserve">${w}</w:delText></w:r>` : `<w:r><w:t xml:space="preserve">${w}</w:t></w:r>`)).join('');
    return `<w:p>${mark ? `<w:pPr><w:rPr>${mark}</w:rPr></w:pPr>` : ''}${runs}</w:p>`;
  }

  private trackedMark(): string {
    const kind = this.rng.int(0, 2);
    if (kind === 2) return '';
    this.constructs.add('mark-at-control-end');
    return `<w:${kind === 0 ? 'ins' : 'del'} w:id="${this.id++}" ${DATE}/>`;
  }

  /** One extra block, or none. */
  block(): string {
    const roll = this.rng.int(0, 5);
    if (roll === 0 || roll === 1) {
      this.constructs.add('block-revision');
      const tag = roll === 0 ? 'ins' : 'del';
      let paragraphs = '';
      for (let k = this.rng.int(1, 2); k > 0; k--) paragraphs += this.paragraph(tag === 'del', '');
      return `<w:${tag} w:id="${this.id++}" ${DATE}>${paragraphs}</w:${tag}>`;
    }
    if (roll === 2) {
      this.constructs.add('control-boundary');
      const kind = this.rng.int(0, 1) === 0 ? 'Ins' : 'Del';
      const [start, end] = [this.id++, this.id++];
      let paragraphs = '';
      for (let k = this.rng.int(0, 1); k > 0; k--) paragraphs += this.paragraph(false, '');
      paragraphs += this.paragraph(false, this.trackedMark());
      return (
        `<w:customXml${kind}RangeStart w:id="${start}" ${DATE}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXml${kind}RangeEnd w:id="${start}"/>` +
        `${paragraphs}<w:customXml${kind}RangeStart w:id="${end}" ${DATE}/></w:sdtContent></w:sdt><w:customXml${kind}RangeEnd w:id="${end}"/>`
      );
    }
    return '';
  }
}

/**
 * A move whose halves straddle a block content control's boundary (issue 22.3): one half in a
 * paragraph inside the control, the other outside it (source inside and destination outside, or
 * the reverse), the control or the outside half sometimes in a table cell. The control's own
 * boundaries may be tracked, the moved paragraph's mark may be moved too, the range markers may
 * sit in the paragraph, around it inside the control, or open before the control (Word writes
 * all three), and the moved text reads w:t (Word) or w:delText. Drawn from their own PRNG and
 * ids (7000 up), so the rest of a seed's document is what it was before they were added.
 */
class StraddlingMoves {
  private id = 7000;
  private moves = 0;
  constructor(private readonly rng: Prng, private readonly constructs: Set<Construct>) {}

  private chance(p: number): boolean {
    return this.rng.next() < p;
  }

  private plain(text: string): string {
    return `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  }

  /** A neighbour in the control: plain, or with a tracked mark and text, so joins reach the moved paragraph. */
  private neighbour(): string {
    const roll = this.rng.int(0, 3);
    if (roll === 0) return this.plain('near ');
    const tag = roll === 1 ? 'ins' : 'del';
    const mark = this.chance(0.6) ? `<w:pPr><w:rPr><w:${tag} w:id="${this.id++}" ${DATE}/></w:rPr></w:pPr>` : '';
    const text = tag === 'del' ? '<w:r><w:delText xml:space="preserve">side </w:delText></w:r>' : '<w:r><w:t xml:space="preserve">side </w:t></w:r>';
    return `<w:p>${mark}<w:${tag} w:id="${this.id++}" ${DATE}>${text}</w:${tag}></w:p>`;
  }

  /**
   * One half's paragraph and what stands before it outside its container (a range start opened
   * before the control); `where` says where the range markers go.
   */
  private half(side: 'from' | 'to', name: string, where: 'inline' | 'around' | 'before'): { para: string; before: string } {
    const tag = side === 'from' ? 'moveFrom' : 'moveTo';
    const range = this.id++;
    const whole = this.chance(0.5);
    const textTag = side === 'from' && this.chance(0.5) ? 'w:delText' : 'w:t';
    const kept = this.chance(0.5) ? `<w:r><w:t xml:space="preserve">stays </w:t></w:r>` : '';
    const mark = whole ? `<w:pPr><w:rPr><w:${tag} w:id="${this.id++}" ${DATE}/></w:rPr></w:pPr>` : '';
    const start = `<w:${tag}RangeStart w:id="${range}" ${DATE} w:name="${name}"/>`;
    const end = `<w:${tag}RangeEnd w:id="${range}"/>`;
    const moved = `<w:${tag} w:id="${this.id++}" ${DATE}><w:r><${textTag} xml:space="preserve">Sentence ${name}. </${textTag}></w:r></w:${tag}>`;
    const body = whole ? moved : kept + moved;
    if (where === 'inline') return { para: `<w:p>${mark}${start}${body}${end}</w:p>`, before: '' };
    if (where === 'around') return { para: `${start}<w:p>${mark}${body}</w:p>${end}`, before: '' };
    return { para: `<w:p>${mark}${body}${end}</w:p>`, before: start };
  }

  private control(inner: string, before: string): string {
    const content = (this.chance(0.5) ? this.neighbour() : '') + inner + (this.chance(0.5) ? this.neighbour() : '');
    const kind = this.rng.int(0, 2);
    if (kind === 2) return `${before}<w:sdt><w:sdtPr/><w:sdtContent>${content}</w:sdtContent></w:sdt>`;
    this.constructs.add('control-boundary');
    const k = kind === 0 ? 'Ins' : 'Del';
    const [s, e] = [this.id++, this.id++];
    return (
      `${before}<w:customXml${k}RangeStart w:id="${s}" ${DATE}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXml${k}RangeEnd w:id="${s}"/>` +
      `${content}<w:customXml${k}RangeStart w:id="${e}" ${DATE}/></w:sdtContent></w:sdt><w:customXml${k}RangeEnd w:id="${e}"/>`
    );
  }

  private cell(inner: string): string {
    this.constructs.add('move-across-control-in-table');
    const row = this.chance(0.3) ? `<w:trPr><w:${this.chance(0.5) ? 'ins' : 'del'} w:id="${this.id++}" ${DATE}/></w:trPr>` : '';
    return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr>${row}<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${inner}</w:tc></w:tr></w:tbl>`;
  }

  /** Two blocks, the control (holding one half) and the other half, in document order; or none. */
  blocks(): string[] {
    if (!this.chance(0.4)) return [];
    const name = `straddle${++this.moves}`;
    const sourceInside = this.chance(0.5);
    this.constructs.add(sourceInside ? 'move-out-of-control' : 'move-into-control');
    const where = (['inline', 'around', 'before'] as const)[this.rng.int(0, 2)]!;
    const inside = this.half(sourceInside ? 'from' : 'to', name, where);
    const outside = this.half(sourceInside ? 'to' : 'from', name, this.chance(0.5) ? 'inline' : 'around');
    let control = this.control(inside.para, inside.before);
    // A control in a cell must end the cell with a paragraph.
    if (this.chance(0.25)) control = this.cell(control + this.plain('cell '));
    const other = this.chance(0.25) ? this.cell(outside.before + outside.para) : outside.before + outside.para;
    return this.chance(0.5) ? [control, other] : [other, control];
  }
}

/**
 * Word's markup of a move whose source paragraph is the whole content of a block content control
 * and whose destination is in the body (issue 32 item 2): the control holds only that paragraph,
 * its mark moved too; the range opens before the paragraph inside the control and closes inside
 * it after the moved run; the moved text reads w:t, as Word writes it; the destination is a whole
 * paragraph of its own, before or after the control. The control's boundaries may be tracked, and
 * the paragraph after the control may have a tracked mark. Drawn from their own PRNG and ids (9000
 * up), so the rest of a seed's document is what it was before they were added.
 */
class WholeControlMoves {
  private id = 9000;
  private moves = 0;
  constructor(private readonly rng: Prng, private readonly constructs: Set<Construct>) {}

  private half(side: 'moveFrom' | 'moveTo', name: string): string {
    const range = this.id++;
    const mark = `<w:pPr><w:rPr><w:${side} w:id="${this.id++}" ${DATE}/></w:rPr></w:pPr>`;
    return `<w:${side}RangeStart w:id="${range}" ${DATE} w:name="${name}"/><w:p>${mark}<w:${side} w:id="${this.id++}" ${DATE}><w:r><w:t xml:space="preserve">Clause ${name} text.</w:t></w:r></w:${side}><w:${side}RangeEnd w:id="${range}"/></w:p>`;
  }

  /** The control (holding the whole source) and the destination, in document order; or none. */
  blocks(): string[] {
    if (this.rng.next() >= 0.35) return [];
    this.constructs.add('move-of-whole-control');
    const name = `whole${++this.moves}`;
    const source = this.half('moveFrom', name);
    const kind = this.rng.int(0, 2);
    let control = `<w:sdt><w:sdtPr><w:alias w:val="Clause"/><w:tag w:val="clause-${this.moves}"/><w:id w:val="${this.id++}"/></w:sdtPr><w:sdtContent>${source}</w:sdtContent></w:sdt>`;
    if (kind < 2) {
      this.constructs.add('control-boundary');
      const k = kind === 0 ? 'Ins' : 'Del';
      const [s, e] = [this.id++, this.id++];
      control = `<w:customXml${k}RangeStart w:id="${s}" ${DATE}/>${control.replace('<w:sdtContent>', `<w:sdtContent><w:customXml${k}RangeEnd w:id="${s}"/>`)
        .replace('</w:sdtContent>', `<w:customXml${k}RangeStart w:id="${e}" ${DATE}/></w:sdtContent>`)}<w:customXml${k}RangeEnd w:id="${e}"/>`;
    }
    const after = this.rng.int(0, 2);
    const next = after === 2 ? '' : `<w:p><w:pPr><w:rPr><w:${after === 0 ? 'ins' : 'del'} w:id="${this.id++}" ${DATE}/></w:rPr></w:pPr><w:r><w:t xml:space="preserve">after </w:t></w:r></w:p>`;
    const destination = this.half('moveTo', name);
    return this.rng.next() < 0.5 ? [control + next, destination] : [destination, control + next];
  }
}

/**
 * A whole moved paragraph (its mark moved too) followed by the story's last paragraph, whose
 * inserted mark, rejected, joins it backward: the moved mark then ends a paragraph that also holds
 * a half (either direction) of another move, whose other half is missing, and a paragraph
 * property change. The mark must stay its own move's half whatever is decided first. Drawn from
 * their own PRNG and ids (11000 up), so the rest of a seed's document is what it was before.
 */
class MarkJoinedBesideMove {
  private id = 11000;
  constructor(private readonly rng: Prng, private readonly constructs: Set<Construct>) {}

  private half(side: 'moveFrom' | 'moveTo', name: string, text: string): string {
    const range = this.id++;
    const textTag = side === 'moveFrom' ? 'w:delText' : 'w:t';
    return `<w:${side}RangeStart w:id="${range}" ${DATE} w:name="${name}"/><w:${side} w:id="${this.id++}" ${DATE}><w:r><${textTag} xml:space="preserve">${text}</${textTag}></w:r></w:${side}><w:${side}RangeEnd w:id="${range}"/>`;
  }

  /** The moved paragraph and the last paragraph; or nothing. */
  blocks(): string {
    if (this.rng.next() >= 0.2) return '';
    this.constructs.add('moved-mark-joined-beside-move');
    const side = this.rng.next() < 0.5 ? 'moveTo' : 'moveFrom';
    const other = this.rng.next() < 0.5 ? 'moveTo' : 'moveFrom';
    const range = this.id++;
    const textTag = side === 'moveFrom' ? 'w:delText' : 'w:t';
    const moved =
      `<w:${side}RangeStart w:id="${range}" ${DATE} w:name="marked${range}"/><w:p><w:pPr><w:rPr><w:${side} w:id="${this.id++}" ${DATE}/></w:rPr></w:pPr>` +
      `<w:${side} w:id="${this.id++}" ${DATE}><w:r><${textTag} xml:space="preserve">Whole ${range}. </${textTag}></w:r></w:${side}></w:p><w:${side}RangeEnd w:id="${range}"/>`;
    const reformatted = this.rng.next() < 0.7 ? `<w:jc w:val="center"/>` : '';
    const change = reformatted ? `<w:pPrChange w:id="${this.id++}" ${DATE}><w:pPr><w:jc w:val="left"/></w:pPr></w:pPrChange>` : '';
    const last =
      `<w:p><w:pPr>${reformatted}<w:rPr><w:ins w:id="${this.id++}" ${DATE}/></w:rPr>${change}</w:pPr>` +
      `${this.half(other, `lone${this.id}`, 'moved ')}<w:r><w:t xml:space="preserve">net 30 </w:t></w:r></w:p>`;
    return moved + last;
  }
}

/** A document from `seed`: 2-9 blocks (paragraphs and tables), ending with a paragraph, and some extra blocks between them. */
export function generateFixture(seed: number): GeneratedFixture {
  const rng = new Prng(seed);
  const writer = new Writer(rng, rng.int(0, 3));
  const extra = new ExtraBlocks(new Prng(seed ^ 0x2545f491), writer.constructs);
  const straddling = new StraddlingMoves(new Prng(seed ^ 0x5bd1e995), writer.constructs);
  const whole = new WholeControlMoves(new Prng(seed ^ 0x27d4eb2f), writer.constructs);
  const markJoined = new MarkJoinedBesideMove(new Prng(seed ^ 0x165667b1), writer.constructs);
  const [first, second] = straddling.blocks();
  const [wholeFirst, wholeSecond] = whole.blocks();
  let body = (first ?? '') + extra.block() + (wholeFirst ?? '');
  for (let i = rng.int(1, 8); i > 0; i--) body += (rng.next() < 0.3 ? writer.table() : writer.paragraph()) + extra.block();
  body += (wholeSecond ?? '') + (second ?? '') + writer.paragraph();
  writer.finish();
  body += markJoined.blocks();
  return { bytes: minimalDocx(body), constructs: writer.constructs };
}
