import type { XmlOverlay } from '../xml/overlay';
import { XmlElement, XmlText } from '../xml/tree';
import type { PartVisitor } from './part-walk';

/**
 * A simple field (`w:fldSimple`: "Page 3" as `<w:fldSimple w:instr="PAGE"><w:r>…3…</w:r>`) written
 * as the complex field Word treats as the same thing (begin, instruction, separate, result, end).
 * docx-preview 0.4.1 drops a paragraph's w:fldSimple with everything in it, so without this a
 * footer's "Page 3 of 12" shows as "Page  of" and a simple REF or DATE field's text is blank; the
 * app computes PAGE, NUMPAGES and SECTIONPAGES per page from complex fields (layout/annotate.ts).
 * The field is written before the w:fldSimple, with copies of its result runs, and the w:fldSimple
 * itself is left as it is for docx-preview to drop: renaming it into a container docx-preview reads
 * would leave an element the schema refuses (the variant is checked like every part we write).
 * A visitor: the render variant's walk over each part (part-walk.ts) takes it with the others.
 */
export function showSimpleFields(overlay: XmlOverlay): PartVisitor {
  return {
    // Styles and numbering hold no fields.
    reads: (scan) => scan.role !== 'styles' && scan.role !== 'numbering',
    enter(el) {
      if (el.name !== 'w:fldSimple') return true;
      const instruction = el.attr('w:instr') ?? '';
      const result = el.children.filter((c): c is XmlElement => c.kind === 1).map((c) => c.cloneDeep());
      overlay.insertBefore(el, [fieldChar('begin'), instructionRun(instruction), fieldChar('separate'), ...result, fieldChar('end')]);
      return false;
    },
  };
}

function fieldChar(type: 'begin' | 'separate' | 'end'): XmlElement {
  return XmlElement.create('w:r', {}, [XmlElement.create('w:fldChar', { 'w:fldCharType': type })]);
}

function instructionRun(instruction: string): XmlElement {
  return XmlElement.create('w:r', {}, [XmlElement.create('w:instrText', { 'xml:space': 'preserve' }, [new XmlText(` ${instruction.trim()} `)])]);
}
