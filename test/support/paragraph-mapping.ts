/**
 * The side-by-side mapping's properties on one draft (issue 34.5), shared by the generated and the
 * corpus tests: every redline paragraph maps to an older paragraph or is marked inserted (then the
 * rejected view has nothing of it), in order; what each older paragraph reads is what the redline
 * paragraphs mapped to it leave when every change is rejected; each side's paragraphs carry their
 * bookmarks in order. Text is read with fflate and the XML parser, not through the engine.
 */
import { unzipSync } from 'fflate';
import { expect } from 'vitest';
import { OLDER_PARAGRAPH_PREFIX, REDLINE_PARAGRAPH_PREFIX } from '../../src/contract/side-by-side';
import { sideBySideViews } from '../../src/docx/compare/paragraph-map';
import { parseXml } from '../../src/docx/xml/parse';
import { walk, type XmlElement } from '../../src/docx/xml/tree';

function mainRoot(bytes: Uint8Array): XmlElement {
  const files = unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' });
  return parseXml(new TextDecoder().decode(files['word/document.xml']!)).root;
}

function paragraphs(bytes: Uint8Array): XmlElement[] {
  const out: XmlElement[] = [];
  walk(mainRoot(bytes), (el) => {
    if (el.name === 'w:p') out.push(el);
    return true;
  });
  return out;
}

/** What a paragraph (not those nested in it) reads when every change is rejected: its text and deleted text, outside insertions. */
function rejectedText(p: XmlElement): string {
  let text = '';
  walk(p, (el) => {
    if (el !== p && el.name === 'w:p') return false;
    if (el.name === 'w:ins' || el.name === 'w:moveTo') return false;
    if (el.name === 'w:t' || el.name === 'w:delText') text += ownText(el);
    return true;
  });
  return text;
}

/** The text nodes of an element. */
function ownText(el: XmlElement): string {
  return el.children.map((c) => (c.kind === 2 ? c.text : '')).join('');
}

/** Whether anything of a paragraph (not those nested in it) stays when every change is rejected: a run outside insertions. */
function keepsAnything(p: XmlElement): boolean {
  let kept = false;
  walk(p, (el) => {
    if (kept || (el !== p && el.name === 'w:p') || el.name === 'w:ins' || el.name === 'w:moveTo') return false;
    if (el.name === 'w:r') kept = true;
    return !kept;
  });
  return kept;
}

function markInserted(p: XmlElement): boolean {
  return p.first('w:pPr')?.first('w:rPr')?.elements().some((e) => e.name === 'w:ins' || e.name === 'w:moveTo') ?? false;
}

/** A paragraph's own text (the older view has no revision left). */
function plainText(p: XmlElement): string {
  let text = '';
  walk(p, (el) => {
    if (el !== p && el.name === 'w:p') return false;
    if (el.name === 'w:t') text += ownText(el);
    return true;
  });
  return text;
}

/** Checks the mapping's properties on one draft; answers how many paragraphs it had, and how many inserted. */
export function checkMapping(draft: Uint8Array): { paragraphs: number; inserted: number } {
  const views = sideBySideViews(draft);
  const redline = paragraphs(draft);
  const older = paragraphs(views.older);
  const map = views.paragraphs;
  // Every redline paragraph has an entry; each is an older paragraph or inserted; order kept.
  expect(map).toHaveLength(redline.length);
  let last = -1;
  map.forEach((j, i) => {
    if (j === null) {
      expect(rejectedText(redline[i]!), `paragraph ${i} is marked inserted`).toBe('');
      return;
    }
    // A paragraph the rejected view has nothing of (its mark and all its runs inserted) is marked inserted, not given the next one's place.
    expect(markInserted(redline[i]!) && !keepsAnything(redline[i]!), `paragraph ${i} is all inserted`).toBe(false);
    expect(j).toBeGreaterThanOrEqual(0);
    expect(j).toBeLessThan(views.olderParagraphs);
    expect(j, `paragraph ${i} comes before the one above it`).toBeGreaterThanOrEqual(last);
    last = j;
  });
  expect(older).toHaveLength(views.olderParagraphs);
  // Each older paragraph reads what the redline paragraphs mapped to it leave, rejected.
  const from = older.map(() => '');
  map.forEach((j, i) => {
    if (j !== null) from[j] += rejectedText(redline[i]!);
  });
  expect(from).toEqual(older.map(plainText));
  // The bookmarks the app finds paragraphs by: one per paragraph on each side, in order.
  const names = (bytes: Uint8Array, prefix: string) => {
    const out: string[] = [];
    walk(mainRoot(bytes), (el) => {
      const name = el.name === 'w:bookmarkStart' ? el.attr('w:name') ?? '' : '';
      if (name.startsWith('_rlsb')) out.push(name);
      return true;
    });
    return out.filter((n) => n.startsWith(prefix)).length === out.length ? out : [`foreign bookmark among ${out.join(',')}`];
  };
  expect(names(views.redline, REDLINE_PARAGRAPH_PREFIX)).toEqual(redline.map((_, i) => `${REDLINE_PARAGRAPH_PREFIX}${i}`));
  expect(names(views.older, OLDER_PARAGRAPH_PREFIX)).toEqual(older.map((_, j) => `${OLDER_PARAGRAPH_PREFIX}${j}`));
  return { paragraphs: map.length, inserted: map.filter((j) => j === null).length };
}

