import { walk, XmlElement } from '../xml/tree';
import { insertProperty } from './schema-order';

/** Finding the paragraphs around and inside an element (for placing marks: bookmarks, comment ranges). */

/** The ancestor-or-self of `el` that is a direct child of a w:p. */
export function childOfParagraph(el: XmlElement): XmlElement | null {
  for (let e: XmlElement | null = el; e?.parent; e = e.parent) if (e.parent.name === 'w:p') return e;
  return null;
}

export function ancestorNamed(el: XmlElement, name: string): XmlElement | null {
  for (let e: XmlElement | null = el; e; e = e.parent) if (e.name === name) return e;
  return null;
}

/** The first w:p at or below `el`, in document order. */
export function firstParagraph(el: XmlElement): XmlElement | null {
  let found: XmlElement | null = null;
  walk(el, (e) => {
    if (found) return false;
    if (e.name === 'w:p') {
      found = e;
      return false;
    }
    return true;
  });
  return found;
}

/**
 * The properties of a paragraph's mark (w:pPr/w:rPr), created in schema order where missing: where
 * a tracked insertion or deletion of the mark itself is written.
 */
export function markProperties(p: XmlElement): XmlElement {
  let pPr = p.first('w:pPr');
  if (!pPr) {
    pPr = XmlElement.create('w:pPr');
    p.insertAt(0, pPr);
  }
  let rPr = pPr.first('w:rPr');
  if (!rPr) {
    rPr = XmlElement.create('w:rPr');
    insertProperty(pPr, rPr);
  }
  return rPr;
}
