/**
 * Generated drafts with the shapes of the lab protocol of issue 32 (a comparison-like draft: one
 * author and date on every change): an inserted table of five rows and a deleted one, a heading
 * moved from between them to elsewhere, runs of inserted paragraph marks (a paragraph split into
 * several) and of deleted ones (paragraphs joined, empty paragraphs removed), text replaced and
 * whitespace inserted. Blocks are drawn in a seeded order, so a failing seed reproduces.
 */
import { Prng } from '../../src/docx/fixture/prng';
import { minimalDocx } from '../support/docx-files';

const BY = 'w:author="Compare" w:date="2025-05-01T00:00:00Z"';
const WORDS = ['Order of injection', 'diluent', 'mix well', 'Reference Chromatograms', 'column', 'flow rate', 'blank', 'standard'];

class LabWriter {
  private id = 1;
  constructor(private readonly rng: Prng) {}

  private next(): number {
    return this.id++;
  }

  private words(n = this.rng.int(1, 3)): string {
    return Array.from({ length: n }, () => this.rng.pick(WORDS)).join(' ');
  }

  private t(text: string): string {
    return `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
  }

  private dt(text: string): string {
    return `<w:r><w:delText xml:space="preserve">${text}</w:delText></w:r>`;
  }

  plain(): string {
    return `<w:p>${this.t(`${this.words()}.`)}</w:p>`;
  }

  private row(tag: 'ins' | 'del', columns: number): string {
    let cells = '';
    for (let c = 0; c < columns; c++) {
      const text = this.words(1);
      const run = tag === 'ins' ? `<w:ins w:id="${this.next()}" ${BY}>${this.t(text)}</w:ins>` : `<w:del w:id="${this.next()}" ${BY}>${this.dt(text)}</w:del>`;
      cells += `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p><w:pPr><w:rPr><w:${tag} w:id="${this.next()}" ${BY}/></w:rPr></w:pPr>${run}</w:p></w:tc>`;
    }
    return `<w:tr><w:trPr><w:${tag} w:id="${this.next()}" ${BY}/></w:trPr>${cells}</w:tr>`;
  }

  /** A table of five rows, all inserted or all deleted (with the paragraph mark before it tracked the same way, as a comparison writes it). */
  table(tag: 'ins' | 'del'): string {
    const columns = this.rng.int(1, 3);
    const grid = Array.from({ length: columns }, () => '<w:gridCol w:w="3000"/>').join('');
    let rows = '';
    for (let r = 0; r < 5; r++) rows += this.row(tag, columns);
    const lead = this.rng.next() < 0.5 ? `<w:p><w:pPr><w:rPr><w:${tag} w:id="${this.next()}" ${BY}/></w:rPr></w:pPr>${this.t(this.words())}</w:p>` : '';
    return `${lead}<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>${grid}</w:tblGrid>${rows}</w:tbl>`;
  }

  /** The two halves of a moved heading (a whole paragraph, its mark moved too). */
  move(name: string): { from: string; to: string } {
    const text = `Heading ${name}`;
    const half = (side: 'moveFrom' | 'moveTo') => {
      const range = this.next();
      const run = side === 'moveFrom' ? this.dt(text) : this.t(text);
      return `<w:p><w:pPr><w:rPr><w:${side} w:id="${this.next()}" ${BY}/></w:rPr></w:pPr><w:${side}RangeStart w:id="${range}" ${BY} w:name="${name}"/>` +
        `<w:${side} w:id="${this.next()}" ${BY}>${run}</w:${side}><w:${side}RangeEnd w:id="${range}"/></w:p>`;
    };
    return { from: half('moveFrom'), to: half('moveTo') };
  }

  /** A paragraph split into 2-4 by inserted marks (the first part untracked). */
  split(): string {
    let out = '';
    const parts = this.rng.int(2, 4);
    for (let i = 0; i < parts; i++) {
      const mark = i < parts - 1 ? `<w:pPr><w:rPr><w:ins w:id="${this.next()}" ${BY}/></w:rPr></w:pPr>` : '';
      out += `<w:p>${mark}${this.t(`${this.words()} `)}</w:p>`;
    }
    return out;
  }

  /** Paragraphs joined by deleted marks, some of them empty (removed empty paragraphs). */
  joined(): string {
    let out = '';
    const parts = this.rng.int(2, 5);
    for (let i = 0; i < parts; i++) {
      const mark = i < parts - 1 ? `<w:pPr><w:rPr><w:del w:id="${this.next()}" ${BY}/></w:rPr></w:pPr>` : '';
      const text = this.rng.next() < 0.4 && i < parts - 1 ? '' : this.t(`${this.words()} `);
      out += `<w:p>${mark}${text}</w:p>`;
    }
    return out;
  }

  /** A replacement, or whitespace (a tab, spaces, a line break) inserted between words. */
  inline(): string {
    const roll = this.rng.int(0, 3);
    const before = this.t(`${this.words()} `);
    if (roll === 0) {
      return `<w:p>${before}<w:del w:id="${this.next()}" ${BY}>${this.dt(this.words(1))}</w:del><w:ins w:id="${this.next()}" ${BY}>${this.t(this.words(1))}</w:ins>${this.t('.')}</w:p>`;
    }
    const inserted = roll === 1 ? '<w:r><w:tab/></w:r>' : roll === 2 ? this.t('   ') : '<w:r><w:br/></w:r>';
    return `<w:p>${before}<w:ins w:id="${this.next()}" ${BY}>${inserted}</w:ins>${this.t(this.words())}</w:p>`;
  }
}

/**
 * A lab-protocol draft from `seed`: the inserted table, the moved heading's source, the deleted
 * table, in that order (as in the file of issue 32), with split, joined, replaced and whitespace
 * paragraphs around them and the heading's destination further on.
 */
export function generateLabProtocol(seed: number): Uint8Array {
  const rng = new Prng(seed);
  const w = new LabWriter(rng);
  const filler = () => {
    const roll = rng.int(0, 4);
    return roll === 0 ? w.split() : roll === 1 ? w.joined() : roll === 2 ? w.inline() : w.plain();
  };
  const move = w.move('m1');
  const blocks = [filler(), w.table('ins'), rng.next() < 0.5 ? filler() : '', move.from, w.table('del'), filler(), filler(), move.to, filler()];
  return minimalDocx(`${blocks.join('')}${w.plain()}`);
}
