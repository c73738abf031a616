import { XmlElement, isWithin, remove, walk } from '../xml/tree';

/**
 * Structural repairs after content was removed or joined, so the output opens in Word and
 * LibreOffice: no table without rows, no row without cells, every cell and story ends with a
 * paragraph, the body ends with a paragraph before its final w:sectPr, no empty revision
 * wrappers without an id, and no range marker (bookmark, comment range, move range) without its partner.
 * Only elements on the path to a change (dirty ones) are examined for emptiness.
 */
/**
 * An emptied wrapper that still names a change (an insertion whose only content, a deletion,
 * was accepted) stays, listed, until it is decided itself: removing it would decide it as a side
 * effect of another change, with a verdict nobody gave, and make the result (and the track)
 * depend on which of the two was decided first.
 */
const INLINE_WRAPPERS = new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);
const STORY_CONTAINERS = new Set(['w:hdr', 'w:ftr', 'w:footnote', 'w:endnote', 'w:comment', 'w:txbxContent']);
const RANGE_PAIRS: [string, string][] = [
  ['w:bookmarkStart', 'w:bookmarkEnd'],
  ['w:commentRangeStart', 'w:commentRangeEnd'],
  ['w:moveFromRangeStart', 'w:moveFromRangeEnd'],
  ['w:moveToRangeStart', 'w:moveToRangeEnd'],
];

/** `ranges`: every range marker the part had before the change (PartScan.ranges); removed ones are skipped. */
export function repairStructure(root: XmlElement, ranges: readonly XmlElement[]): void {
  if (!root.dirty) return;
  const dirty: XmlElement[] = [];
  walk(root, (el) => {
    if (!el.dirty) return false;
    dirty.push(el);
    return true;
  });
  // Deepest first, so an emptied row empties its table before the table is looked at.
  for (let i = dirty.length - 1; i >= 0; i--) {
    const el = dirty[i]!;
    if (!el.parent && el !== root) continue;
    const name = el.name;
    if (INLINE_WRAPPERS.has(name) && isInline(el) && el.elements().length === 0 && el.attr('w:id') === null) remove(el);
    else if (name === 'w:tr' && el.all('w:tc').length === 0 && !el.first('w:sdt') && !el.first('w:customXml')) remove(el);
    else if (name === 'w:tbl' && el.all('w:tr').length === 0 && !el.first('w:sdt') && !el.first('w:customXml')) remove(el);
    else if (isEmptiedParagraphProperties(el)) remove(el);
  }
  for (const el of dirty) {
    if (!isWithin(el, root)) continue;
    if (el.name === 'w:tc' || STORY_CONTAINERS.has(el.name)) endWithParagraph(el, null);
    else if (el.name === 'w:body') endWithParagraph(el, el.first('w:sectPr'));
  }
  removeOrphanRanges(root, ranges);
}

/**
 * A paragraph's properties, or its mark's, that a decision left empty: they go, so that the
 * result does not depend on which of the decisions inside them came last (a mark revision
 * carried into a paragraph without properties, joins.ts, leaves them empty when decided there).
 */
function isEmptiedParagraphProperties(el: XmlElement): boolean {
  if (el.elements().length) return false;
  return el.name === 'w:pPr' || (el.name === 'w:rPr' && el.parent?.name === 'w:pPr');
}

function isInline(el: XmlElement): boolean {
  const p = el.parent?.name;
  return p !== 'w:rPr' && p !== 'w:trPr' && p !== 'w:numPr';
}

/** Ensures the last block-level element (before `tail`, if given) is a w:p. */
function endWithParagraph(container: XmlElement, tail: XmlElement | null): void {
  const kids = container.elements().filter((k) => k !== tail && !k.name.endsWith('Pr'));
  let last: XmlElement | undefined;
  for (let i = kids.length - 1; i >= 0; i--) {
    const k = kids[i]!;
    if (k.name === 'w:bookmarkEnd' || k.name === 'w:commentRangeEnd' || k.name.endsWith('RangeEnd') || k.name === 'w:permEnd') continue;
    last = k;
    break;
  }
  if (last && (last.name === 'w:p' || last.name === 'w:sdt' || last.name === 'w:customXml' || last.name === 'mc:AlternateContent')) return;
  const p = XmlElement.create('w:p');
  if (tail) container.insertBefore(p, tail);
  else container.append(p);
}

function removeOrphanRanges(root: XmlElement, ranges: readonly XmlElement[]): void {
  const found = new Map<string, XmlElement[]>();
  for (const el of ranges) {
    if (!isWithin(el, root)) continue;
    const list = found.get(el.name);
    if (list) list.push(el);
    else found.set(el.name, [el]);
  }
  for (const [s, e] of RANGE_PAIRS) {
    const starts = found.get(s) ?? [];
    const ends = found.get(e) ?? [];
    const startIds = new Set(starts.map((x) => x.attr('w:id')));
    const endIds = new Set(ends.map((x) => x.attr('w:id')));
    for (const x of starts) if (!endIds.has(x.attr('w:id'))) remove(x);
    for (const x of ends) if (!startIds.has(x.attr('w:id'))) remove(x);
  }
}
