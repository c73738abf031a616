import { siteContent, type Site } from '../revisions/sites';
import { ancestorNamed, childOfParagraph, firstParagraph } from '../ooxml/paragraphs';
import { XmlElement } from '../xml/tree';

/**
 * Where a comment's markers go in the text, as Word writes them: w:commentRangeStart where the
 * range starts, w:commentRangeEnd where it ends, then a run holding w:commentReference (the
 * comment's mark). The reference run is always a direct child of the paragraph, outside any
 * tracked insertion or deletion, so deciding the change a comment is about keeps the comment
 * (as a point comment if its whole range went with the change).
 */
export interface CommentRange {
  /** Put the start before this node (same parent). */
  startBefore: XmlElement;
  /** Put the end after this node (same parent). */
  endAfter: XmlElement;
}

/** The markers of one comment; a reply's markers sit right after its parent's, as Word nests them. */
export function markersFor(id: string): { start: XmlElement; end: XmlElement; reference: XmlElement } {
  return {
    start: XmlElement.create('w:commentRangeStart', { 'w:id': id }),
    end: XmlElement.create('w:commentRangeEnd', { 'w:id': id }),
    reference: XmlElement.create('w:r', {}, [
      XmlElement.create('w:rPr', {}, [XmlElement.create('w:rStyle', { 'w:val': 'CommentReference' })]),
      XmlElement.create('w:commentReference', { 'w:id': id }),
    ]),
  };
}

/** Places a comment's markers around `range`; the reference run follows the end at paragraph level. */
export function placeMarkers(id: string, range: CommentRange): void {
  const { start, end, reference } = markersFor(id);
  range.startBefore.parent!.insertBefore(start, range.startBefore);
  range.endAfter.parent!.insertAfter(end, range.endAfter);
  // After the paragraph-level element holding the end, and after the comment marks that follow it.
  let after = childOfParagraph(end);
  if (!after?.parent) return;
  const kids = after.parent.children;
  for (let i = kids.indexOf(after) + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (k.kind !== 1 || !isCommentMarker(k) || k.name === 'w:commentRangeStart') break;
    after = k;
  }
  after.parent!.insertAfter(reference, after);
}

/** Whether a node is one of a comment's markers (a range marker or its reference run). */
export function isCommentMarker(el: XmlElement): boolean {
  if (el.name === 'w:commentRangeStart' || el.name === 'w:commentRangeEnd') return true;
  return el.name === 'w:r' && el.first('w:commentReference') !== null;
}

/**
 * The range of a change's first site: the revision element itself for changes in the text
 * (insertions, deletions, moves, proposed content, a run's formatting); the whole paragraph
 * for a paragraph mark or paragraph formatting; the first paragraph of the row, cell or table
 * for table changes; null where the change has no place in a story's text (styles, numbering).
 * Existing comments exactly on the same element stay inside the new range.
 */
export function rangeOfSite(site: Site): CommentRange | null {
  if (site.role === 'styles' || site.role === 'numbering' || site.role === 'header' || site.role === 'footer') return null;
  const el = site.el;
  switch (site.type) {
    case 'run-ins':
    case 'run-del':
    case 'move-from':
    case 'move-to':
    case 'proposed': {
      const content = siteContent(site);
      // A change inside an equation's run (m:r > w:ins|w:del): once decided, the wrapper goes and
      // m:r allows no range marker, so the range goes around the math run.
      if (el.parent?.name === 'm:r') return around(el.parent);
      if (childOfParagraph(el)) return inside(content) ?? around(el);
      return paragraphRange(firstParagraph(content), lastParagraph(content));
    }
    case 'rpr-change': {
      const run = el.parent?.parent;
      if (run?.name === 'w:r' && childOfParagraph(run)) return around(run);
      break;
    }
    case 'sectpr-change': {
      const sectPr = el.parent;
      const p = sectPr?.parent?.name === 'w:pPr' ? sectPr.parent.parent : lastParagraph(sectPr?.parent ?? null);
      return p?.name === 'w:p' ? paragraphRange(p, p) : null;
    }
    default:
      break;
  }
  const p = ancestorNamed(el, 'w:p');
  if (p) return paragraphRange(p, p);
  const holder = ancestorNamed(el, 'w:tc') ?? ancestorNamed(el, 'w:tr') ?? ancestorNamed(el, 'w:tbl');
  const first = holder ? firstParagraph(holder) : null;
  return paragraphRange(first, first);
}

/**
 * A range around the content of a revision element, inside it: a comment Redline writes on a
 * change is never "anchored exactly on" it, which is how an uploaded file's justification is
 * recognised (revisions/justification.ts). Rejecting an insertion or accepting a deletion takes
 * the range with the content and leaves the comment at its reference, as a point comment.
 */
function inside(el: XmlElement): CommentRange | null {
  const kids = el.elements();
  if (kids.length === 0) return null;
  return { startBefore: kids[0]!, endAfter: kids[kids.length - 1]! };
}

/** A range exactly around `el`, outside the comment markers already hugging it. */
export function around(el: XmlElement): CommentRange {
  const kids = el.parent!.children;
  let s = kids.indexOf(el);
  while (s > 0 && kids[s - 1]!.kind === 1 && (kids[s - 1] as XmlElement).name === 'w:commentRangeStart') s--;
  let e = kids.indexOf(el);
  while (e + 1 < kids.length && kids[e + 1]!.kind === 1 && isCommentMarker(kids[e + 1] as XmlElement) && (kids[e + 1] as XmlElement).name !== 'w:commentRangeStart') e++;
  return { startBefore: kids[s] as XmlElement, endAfter: kids[e] as XmlElement };
}

/** From the start of `first` (after its properties) to the end of `last`'s content. */
function paragraphRange(first: XmlElement | null, last: XmlElement | null): CommentRange | null {
  if (!first || !last) return null;
  const firstKids = first.elements().filter((k) => k.name !== 'w:pPr');
  const lastKids = last.elements().filter((k) => k.name !== 'w:pPr');
  if (firstKids.length === 0 || lastKids.length === 0) {
    // An empty paragraph: an empty run gives the markers something to stand around.
    const holder = firstKids.length === 0 ? first : last;
    holder.append(XmlElement.create('w:r'));
    return paragraphRange(first, last);
  }
  return { startBefore: firstKids[0]!, endAfter: lastKids[lastKids.length - 1]! };
}

function lastParagraph(el: XmlElement | null): XmlElement | null {
  if (!el) return null;
  if (el.name === 'w:p') return el;
  const kids = el.elements();
  for (let i = kids.length - 1; i >= 0; i--) {
    const p = lastParagraph(kids[i]!);
    if (p) return p;
  }
  return null;
}
