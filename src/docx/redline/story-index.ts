import type { PartScan } from '../revisions/sites';
import { walk, type XmlElement } from '../xml/tree';

/**
 * The searchable text of the story parts a batch of redline edits works on, read once per batch
 * and kept current as its edits land. An edit changes only the paragraphs its match covers (runs
 * split, text deleted, text inserted) and, for a new paragraph, the story's order around it; so
 * only those are read again. Reading a whole part for each edit made a batch quadratic in the
 * draft's size (500 edits on a 9,000-paragraph draft: minutes on the service's thread).
 *
 * A story's text is its paragraphs' text (text already deleted, w:del and w:moveFrom, left out)
 * joined by their boundaries: "\n" between two consecutive paragraphs of one container (a body,
 * a cell, a note), NO_BOUNDARY between paragraphs that do not follow each other (a text box's
 * paragraphs, read after the paragraph anchoring it, or across containers), which no find matches.
 */

export interface Segment {
  t: XmlElement;
  start: number;
  text: string;
}

export interface Paragraph {
  el: XmlElement;
  text: string;
  segments: Segment[];
}

/** Consecutive paragraphs of one story and their text joined by their boundaries: a whole part, or the window a match lies in. */
export interface Story {
  paragraphs: Paragraph[];
  /** Where each paragraph's text starts in `text`. */
  offsets: number[];
  text: string;
}

/** A match: from one offset to another in one story, over one or more paragraphs. */
export interface Match {
  story: Story;
  from: number;
  to: number;
}

/** Stands between paragraphs that do not follow each other in one container: no find matches it. */
export const NO_BOUNDARY = '\u0000';

/** The story parts edits search and change, in listing order (not comments, styles or numbering). */
export const SEARCHED_ROLES: ReadonlySet<string> = new Set(['document', 'header', 'footer', 'footnotes', 'endnotes']);

/** Elements whose content is not searchable text: deleted text, the fallback of alternate content, properties. */
const DELETED = new Set(['w:del', 'w:moveFrom', 'mc:Fallback', 'w:pPr', 'w:rPr']);

/** Elements whose content is not searchable text (the runs a paragraph's last run is looked for in skip them too). */
export function unsearched(el: XmlElement): boolean {
  return DELETED.has(el.name);
}

/** A paragraph's own text (not its nested text boxes') and the w:t pieces it is made of. */
function readParagraph(el: XmlElement): Paragraph {
  const segments: Segment[] = [];
  let text = '';
  const collect = (e: XmlElement): void => {
    for (const c of e.children) {
      if (c.kind !== 1 || DELETED.has(c.name) || c.name === 'w:p') continue;
      if (c.name === 'w:t' && c.parent?.name === 'w:r') {
        const s = c.children.map((k) => (k.kind === 2 ? k.text : '')).join('');
        segments.push({ t: c, start: text.length, text: s });
        text += s;
      } else collect(c);
    }
  };
  collect(el);
  return { el, text, segments };
}

/** Whether `b` is the next paragraph after `a` in the same container (only range markers between). */
function consecutive(a: XmlElement, b: XmlElement): boolean {
  const kids = a.parent?.children;
  if (!kids || b.parent !== a.parent) return false;
  for (let i = kids.indexOf(a) + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (k === b) return true;
    if (k.kind === 1 && !k.name.endsWith('Start') && !k.name.endsWith('End') && k.name !== 'w:proofErr') return false;
  }
  return false;
}

/** A story paragraph and where it stands in its part's order (kept current as paragraphs are added). */
interface Listed extends Paragraph {
  at: number;
}

/** One part's story: its paragraphs in order and the boundary before each. */
export class PartStory {
  private readonly paragraphs: Listed[] = [];
  /** boundaries[i]: what stands between paragraph i - 1 and paragraph i ('' before the first). */
  private readonly boundaries: string[] = [];
  private readonly byElement = new Map<XmlElement, Listed>();
  /** The whole part as one Story, made when a find searches it and dropped when a paragraph changes. */
  private joined: Story | null = null;

  constructor(root: XmlElement) {
    walk(root, (el) => {
      if (DELETED.has(el.name)) return false;
      if (el.name !== 'w:p') return true;
      this.add(this.paragraphs.length, readParagraph(el));
      return true; // nested paragraphs (text boxes) are searched on their own
    });
    this.paragraphs.forEach((_, i) => (this.boundaries[i] = this.boundaryBefore(i)));
  }

  /** The index of `el` among the story's paragraphs, or -1 when it is not one (deleted, or a fallback's). */
  indexOf(el: XmlElement): number {
    return this.byElement.get(el)?.at ?? -1;
  }

  /** What stands before paragraph `i`: "\n", NO_BOUNDARY, or '' (the first paragraph, or past the last). */
  boundary(i: number): string {
    return this.boundaries[i] ?? '';
  }

  /** The whole part as one story (the text a find searches, and the context of a refusal's candidates). */
  whole(): Story {
    if (!this.joined) this.joined = this.window(0, this.paragraphs.length - 1);
    return this.joined;
  }

  /** Paragraphs first..last (indices of this part) as a story of their own. */
  window(first: number, last: number): Story {
    const paragraphs: Paragraph[] = [];
    const offsets: number[] = [];
    const pieces: string[] = [];
    let length = 0;
    for (let i = first; i <= last; i++) {
      if (i > first) {
        pieces.push(this.boundaries[i]!);
        length++;
      }
      const p = this.paragraphs[i]!;
      paragraphs.push(p);
      offsets.push(length);
      pieces.push(p.text);
      length += p.text.length;
    }
    return { paragraphs, offsets, text: pieces.join('') };
  }

  /** A match in the whole part, as a match in the window of the paragraphs it covers. */
  narrow(match: Match): Match {
    const { offsets } = match.story;
    const first = lastAtOrBefore(offsets, match.from);
    // A match ending on a boundary takes the paragraph after it too: that boundary's mark is the first one's.
    const last = lastAtOrBefore(offsets, match.to);
    const story = this.window(first, last);
    const shift = offsets[first]!;
    return { story, from: match.from - shift, to: match.to - shift };
  }

  /** Reads again the paragraphs an edit changed (their runs split, text deleted or inserted). */
  refresh(changed: readonly Paragraph[]): void {
    for (const p of changed) {
      const listed = this.byElement.get(p.el);
      if (!listed) continue;
      const now = readParagraph(p.el);
      listed.text = now.text;
      listed.segments = now.segments;
    }
    this.joined = null;
  }

  /**
   * Takes in a paragraph just inserted after `after`: in story order it follows `after` and the
   * text boxes `after` anchors, and the boundaries on either side of it are read again.
   */
  inserted(after: XmlElement, fresh: XmlElement): void {
    const previous = this.byElement.get(after);
    if (!previous) return;
    let at = previous.at + 1;
    while (at < this.paragraphs.length && within(this.paragraphs[at]!.el, after)) at++;
    this.add(at, readParagraph(fresh));
    for (let i = at + 1; i < this.paragraphs.length; i++) this.paragraphs[i]!.at = i;
    this.boundaries.splice(at, 0, '');
    this.boundaries[at] = this.boundaryBefore(at);
    if (at + 1 < this.paragraphs.length) this.boundaries[at + 1] = this.boundaryBefore(at + 1);
    this.joined = null;
  }

  private add(at: number, p: Paragraph): void {
    const listed: Listed = { ...p, at };
    this.paragraphs.splice(at, 0, listed);
    this.byElement.set(p.el, listed);
  }

  private boundaryBefore(i: number): string {
    if (i === 0) return '';
    return consecutive(this.paragraphs[i - 1]!.el, this.paragraphs[i]!.el) ? '\n' : NO_BOUNDARY;
  }
}

/** Whether `el` lies inside `container`. */
function within(el: XmlElement, container: XmlElement): boolean {
  for (let e = el.parent; e; e = e.parent) if (e === container) return true;
  return false;
}

/** The index of the last offset at or before `at` (offsets ascending, the first 0). */
function lastAtOrBefore(offsets: readonly number[], at: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where a paragraph stands: its part's role, its part's story (null: a part edits do not act on, a comment) and its index there (-1: not a story paragraph). */
export interface Placed {
  role: string;
  story: PartStory | null;
  at: number;
}

/**
 * The stories of a document's parts for one batch of edits: each part read when first needed,
 * then kept current by the edits (`refresh`, `inserted`) rather than read again.
 */
export class StoryIndex {
  private readonly stories = new Map<XmlElement, PartStory>();

  constructor(private readonly scans: readonly Pick<PartScan, 'role' | 'doc'>[]) {}

  /** The story of one part (by its root element), read on first use. */
  protected storyOf(root: XmlElement): PartStory {
    let story = this.stories.get(root);
    if (!story) {
      story = new PartStory(root);
      this.stories.set(root, story);
    }
    return story;
  }

  /** The part holding `p` and where `p` stands in its story; null when `p` is in no part of the document. */
  place(p: XmlElement): Placed | null {
    let root: XmlElement = p;
    while (root.parent) root = root.parent;
    const scan = this.scans.find((s) => s.doc.root === root);
    if (!scan) return null;
    if (!SEARCHED_ROLES.has(scan.role)) return { role: scan.role, story: null, at: -1 };
    const story = this.storyOf(root);
    return { role: scan.role, story, at: story.indexOf(p) };
  }

  /** Where `find` occurs for the `occurrence`-th time in the searched stories, in listing order, as a match in the window it covers. */
  locate(find: string, occurrence: number): { match: Match; story: PartStory } | null {
    if (!find || find.includes(NO_BOUNDARY)) return null;
    let seen = 0;
    for (const scan of this.scans) {
      if (!SEARCHED_ROLES.has(scan.role)) continue;
      const story = this.storyOf(scan.doc.root);
      const whole = story.whole();
      let at = whole.text.indexOf(find);
      while (at >= 0) {
        if (++seen === occurrence) return { match: story.narrow({ story: whole, from: at, to: at + find.length }), story };
        at = whole.text.indexOf(find, at + find.length);
      }
    }
    return null;
  }
}
