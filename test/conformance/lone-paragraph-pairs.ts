import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { Ids, build, makers, run } from './word-control-bases';

/**
 * Issue 34 item 3's last shape, generated: a paragraph one version has *alone* beside a block
 * content control, where no other paragraph stands next to it in its container: between a
 * control and a table (either way round), between two controls, first in its container before a
 * control, or after a control that ends its container (the body before w:sectPr, a table cell, an
 * outer control's content). The comparison marks it inserted (newer has it) or deleted (older
 * has it), and deciding all one way must take it away whole: its mark joins neither into a control
 * nor across one, and no paragraph is beside it to take the join instead.
 *
 * Every combination is built, with Word's markup (word-control-bases.ts: Word's sdtPr, ids and
 * self-closing empty paragraphs): each neighbour before it (the container's start, a table, a
 * rich-text control, a rich-text control of checkbox lines, a repeating section, a control whose
 * last block is a nested control) and after it (the container's end, a table, a rich-text
 * control, a repeating section), at least one of them a control; in each container; the lone
 * paragraph empty as Word writes it, with text, or styled with a bookmark around its text, or two
 * paragraphs standing there together (a stretch); both directions. Left out, as a valid document
 * has neither: two tables with nothing between, and a container whose last block is a table.
 */
export interface LonePair {
  name: string;
  older: Uint8Array;
  newer: Uint8Array;
}

type Neighbour = 'start' | 'end' | 'table' | 'rich text' | 'checkboxes' | 'repeating section' | 'nested control last';
const BEFORE: readonly Neighbour[] = ['start', 'table', 'rich text', 'checkboxes', 'repeating section', 'nested control last'];
const AFTER: readonly Neighbour[] = ['end', 'table', 'rich text', 'repeating section'];
const CONTAINERS = ['body', 'cell', 'control'] as const;
const LONE = ['empty', 'text', 'styled with a bookmark', 'two paragraphs'] as const;
const isControl = (n: Neighbour): boolean => n !== 'start' && n !== 'end' && n !== 'table';

export function loneParagraphPairs(): LonePair[] {
  const out: LonePair[] = [];
  for (const container of CONTAINERS) {
    for (const before of BEFORE) {
      for (const after of AFTER) {
        if (!isControl(before) && !isControl(after)) continue;
        for (const lone of LONE) {
          const [without, withLone] = documents(container, before, after, lone);
          const name = `${container}: ${before} | lone paragraph (${lone}) | ${after}`;
          out.push({ name: `${name}, inserted`, older: without, newer: withLone });
          out.push({ name: `${name}, deleted`, older: withLone, newer: without });
        }
      }
    }
  }
  return out;
}

/** The document without the lone paragraph and with it, otherwise the same bytes. */
function documents(container: (typeof CONTAINERS)[number], before: Neighbour, after: Neighbour, lone: (typeof LONE)[number]): [Uint8Array, Uint8Array] {
  const ids = new Ids();
  const m = makers(ids);
  const block = (n: Neighbour): string => {
    switch (n) {
      case 'table':
        return m.table(m.row(m.p('Fee'), m.p('USD 4,000')));
      case 'rich text':
        return m.richText(m.p('Held in a rich-text control.'), 'Clause');
      case 'checkboxes':
        return m.richText(m.para(m.checkbox(false) + run(' Monthly invoicing')) + m.para(m.checkbox(true) + run(' Quarterly invoicing')), 'Invoicing options');
      case 'repeating section':
        return m.section([m.p('Party: Acme Holdings Limited'), m.p('Party: Beta Trading LLC')], 'Parties');
      case 'nested control last':
        return m.richText(m.p('Signatory options') + m.richText(m.p('Director'), 'Signatory'), 'Signing');
      default:
        return '';
    }
  };
  const first = block(before);
  const last = block(after);
  const paragraph = {
    empty: () => m.empty(),
    text: () => m.p('A paragraph standing alone beside the control.'),
    'styled with a bookmark': () => m.para(`<w:bookmarkStart w:id="90" w:name="LoneClause"/>${run('A styled paragraph alone.')}<w:bookmarkEnd w:id="90"/>`, '<w:pStyle w:val="Heading1"/>'),
    'two paragraphs': () => m.p('Two paragraphs stand here,') + m.empty(),
  }[lone]();
  const clause = (n: number): string => m.p(`${n}. The Supplier shall deliver the Services with reasonable skill and care.`);
  const wrap = (blocks: string): string[] => {
    // A cell (and, as Word writes it, a control's content) ends with a paragraph after a table.
    const inner = after === 'table' && container !== 'body' ? blocks + m.empty() : blocks;
    switch (container) {
      case 'body':
        // The container's start and end are the body's: no paragraph before or after.
        return [...(before === 'start' ? [] : [clause(1)]), inner, ...(after === 'end' ? [] : [clause(2)])];
      case 'cell':
        return [clause(1), m.table(m.row(inner, m.p('Beside it'))), clause(2)];
      case 'control':
        return [clause(1), m.richText(inner, 'Outer'), clause(2)];
    }
  };
  const doc = (blocks: string[]): Uint8Array => (container === 'body' && after === 'end' ? endingWithLastBlock(build(blocks)) : build(blocks));
  return [doc(wrap(first + last)), doc(wrap(first + paragraph + last))];
}

/**
 * The document without the empty paragraph the fixture builder adds after a last block that is
 * not a paragraph (buildDocx): the body then ends with that block, right before w:sectPr.
 */
function endingWithLastBlock(bytes: Uint8Array): Uint8Array {
  const files = unzipSync(bytes);
  const xml = strFromU8(files['word/document.xml']!);
  files['word/document.xml'] = strToU8(xml.replace(/<w:p><\/w:p>(<w:sectPr>)/, '$1'));
  return zipSync(files);
}
