import { OLDER_PARAGRAPH_PREFIX, REDLINE_PARAGRAPH_PREFIX } from '../../contract/side-by-side';
import { OpenDocx } from '../document';
import { DocxPackage } from '../package/package';
import { scanPart } from '../revisions/sites';
import { XmlElement, remove, walk } from '../xml/tree';
import { decideEverything } from './decided';

/**
 * The two halves of a side-by-side reading of a draft (issue 34.5): the draft's rejected view (the
 * older version, when the draft is a comparison: rejecting every change gives it) and the draft's
 * render variant, each paragraph of both carrying a bookmark that names its place, and which older
 * paragraph each paragraph of the redline comes from.
 *
 * The mapping is the engine's own: every paragraph of the draft is tagged before the engine rejects
 * every change, and the rejected view's paragraph that holds a tag afterwards is where that
 * paragraph went. Joins (an inserted paragraph mark), dropped rows and tables, moves (their
 * destination goes, their source stays) are then the engine's decisions, not worked out again here.
 */
export interface SideBySideViews {
  /** The draft's render variant, each paragraph of the main part starting with `REDLINE_PARAGRAPH_PREFIX<i>`. */
  redline: Uint8Array;
  /** The draft's rejected view, each paragraph of the main part starting with `OLDER_PARAGRAPH_PREFIX<j>`. */
  older: Uint8Array;
  /** For each paragraph of the redline (main part, document order), the older paragraph it comes from; null: wholly inserted. */
  paragraphs: (number | null)[];
  /** How many paragraphs the older view's main part holds. */
  olderParagraphs: number;
}

/**
 * Bookmark ids: their own space in Word's files. Above the waiting joins' (1e9..2e9, joins.ts) and
 * the render variant's (2e9..2.1e9, render/variant.ts), so none is taken twice in one file.
 */
const TAG_ID_BASE = 2_100_000_000;

export function sideBySideViews(draft: Uint8Array): SideBySideViews {
  // 1. Every paragraph of the draft tagged with its place.
  const tagged = DocxPackage.open(draft);
  const draftParagraphs = paragraphsOf(tagged);
  const insertedWholly = draftParagraphs.map(isWhollyInserted);
  draftParagraphs.forEach((p, i) => tag(p, REDLINE_PARAGRAPH_PREFIX, i));
  const taggedBytes = tagged.toBytes();

  // 2. The rejected view, as the engine rejects every change; where each tag went.
  const older = DocxPackage.open(taggedBytes);
  const scans = older.stories().map(({ part, doc }) => scanPart(part.name, part.role, doc));
  decideEverything(scans, 'rejected');
  const olderParagraphs = paragraphsOf(older);
  const paragraphs: (number | null)[] = draftParagraphs.map(() => null);
  for (const { start, paragraph } of tagsOf(older, olderParagraphs)) {
    const i = tagIndex(start, REDLINE_PARAGRAPH_PREFIX)!;
    if (!insertedWholly[i] && paragraph < olderParagraphs.length) paragraphs[i] = paragraph;
    removeBookmark(start);
  }
  olderParagraphs.forEach((p, j) => tag(p, OLDER_PARAGRAPH_PREFIX, j));

  return {
    redline: OpenDocx.open(taggedBytes).renderVariant(),
    older: older.toBytes(),
    paragraphs,
    olderParagraphs: olderParagraphs.length,
  };
}

/** The main part's paragraphs in document order (in tables, controls and text boxes too). */
function paragraphsOf(pkg: DocxPackage): XmlElement[] {
  const out: XmlElement[] = [];
  walk(pkg.xml(pkg.mainPart).root, (el) => {
    if (el.name === 'w:p') out.push(el);
    return true;
  });
  return out;
}

const INSERTED = new Set(['w:ins', 'w:moveTo']);

/**
 * A paragraph the rejected view has nothing of: its mark inserted and every run in it inserted.
 * (Its tag would otherwise travel with the join into the next paragraph and name that one.)
 */
function isWhollyInserted(p: XmlElement): boolean {
  const markProps = p.first('w:pPr')?.first('w:rPr');
  if (!markProps?.elements().some((e) => INSERTED.has(e.name))) return false;
  let keeps = false;
  walk(p, (el) => {
    if (keeps) return false;
    if (el !== p && el.name === 'w:p') return false;
    if (INSERTED.has(el.name)) return false;
    if (el.name === 'w:r') keeps = true;
    return !keeps;
  });
  return !keeps;
}

function tag(p: XmlElement, prefix: string, index: number): void {
  const id = String(TAG_ID_BASE + index);
  const at = p.first('w:pPr') ? 1 + p.children.indexOf(p.first('w:pPr')!) : 0;
  p.insertAt(at, XmlElement.create('w:bookmarkEnd', { 'w:id': id }));
  p.insertAt(at, XmlElement.create('w:bookmarkStart', { 'w:id': id, 'w:name': `${prefix}${index}` }));
}

function tagIndex(start: XmlElement, prefix: string): number | null {
  const name = start.attr('w:name') ?? '';
  return name.startsWith(prefix) ? Number(name.slice(prefix.length)) : null;
}

/**
 * The redline's tags in the rejected view, each with the paragraph that holds it; one left between
 * blocks (the markup between paragraphs travels on in a join) goes with the paragraph after it.
 */
function tagsOf(pkg: DocxPackage, paragraphs: readonly XmlElement[]): { start: XmlElement; paragraph: number }[] {
  const index = new Map(paragraphs.map((p, j) => [p, j]));
  const out: { start: XmlElement; paragraph: number }[] = [];
  let seen = 0;
  walk(pkg.xml(pkg.mainPart).root, (el) => {
    if (el.name === 'w:p') seen = index.get(el)! + 1;
    if (el.name !== 'w:bookmarkStart' || tagIndex(el, REDLINE_PARAGRAPH_PREFIX) === null) return true;
    let holder = el.parent;
    while (holder && holder.name !== 'w:p') holder = holder.parent;
    out.push({ start: el, paragraph: holder ? index.get(holder)! : seen });
    return true;
  });
  return out;
}

function removeBookmark(start: XmlElement): void {
  const id = start.attr('w:id');
  const holder = start.parent;
  remove(start);
  let end: XmlElement | null = null;
  if (holder) walk(holder, (e) => {
    if (e.name === 'w:bookmarkEnd' && e.attr('w:id') === id) end = e;
    return end === null;
  });
  if (end) remove(end);
}
