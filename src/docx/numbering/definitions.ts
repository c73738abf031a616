import type { XmlElement } from '../xml/tree';

/**
 * The list definitions of a package, read once from its numbering and styles parts: what each
 * numId's levels are (its abstract numbering, through numbering-style links, with the num's level
 * overrides), and which list each paragraph style carries (through basedOn).
 */
export interface Level {
  start: number;
  format: string;
  /** w:lvlText: the label pattern, %1..%9 standing for the levels' numbers; null when absent (no label). */
  text: string | null;
  /** w:lvlRestart: the level restarts after a level before this 1-based level is used; 0: never. Null: after any level before it. */
  restart: number | null;
  /** w:isLgl: every number of the label in decimal (legal numbering). */
  legal: boolean;
  /** w:pStyle: the paragraph style this level belongs to. */
  style: string | null;
}

export interface ListInstance {
  numId: string;
  /** The abstract numbering whose counters the instance shares with every other num pointing at it. */
  abstractId: string;
  levels: (Level | undefined)[];
  /** w:lvlOverride/w:startOverride: where each overridden level restarts when the instance is first used. */
  startOverrides: Map<number, number>;
}

export interface ParagraphStyle {
  basedOn: string | null;
  numId: string | null;
  ilvl: number | null;
}

export class NumberingDefinitions {
  private readonly instances = new Map<string, ListInstance | null>();
  private readonly abstracts = new Map<string, XmlElement>();
  private readonly nums = new Map<string, XmlElement>();
  private readonly styles = new Map<string, ParagraphStyle>();
  /** The paragraph style a paragraph without w:pStyle has. */
  readonly defaultStyle: string | null = null;

  constructor(numbering: XmlElement | null, styles: XmlElement | null) {
    for (const a of numbering?.all('w:abstractNum') ?? []) {
      const id = a.attr('w:abstractNumId');
      if (id !== null) this.abstracts.set(id, a);
    }
    for (const n of numbering?.all('w:num') ?? []) {
      const id = n.attr('w:numId');
      if (id !== null) this.nums.set(id, n);
    }
    for (const s of styles?.all('w:style') ?? []) {
      const id = s.attr('w:styleId');
      if (id === null || (s.attr('w:type') ?? 'paragraph') !== 'paragraph' && s.attr('w:type') !== 'numbering') continue;
      const numPr = s.first('w:pPr')?.first('w:numPr');
      this.styles.set(id, {
        basedOn: s.first('w:basedOn')?.attr('w:val') ?? null,
        numId: numPr?.first('w:numId')?.attr('w:val') ?? null,
        ilvl: intOf(numPr?.first('w:ilvl')),
      });
      if (s.attr('w:default') === '1' && s.attr('w:type') !== 'numbering') this.defaultStyle = id;
    }
  }

  /** Whether no list is defined at all (no paragraph can be numbered). */
  get isEmpty(): boolean {
    return this.nums.size === 0;
  }

  /** The list a num id stands for; null for numId 0 (numbering removed) or an undefined one. */
  instance(numId: string): ListInstance | null {
    let found = this.instances.get(numId);
    if (found === undefined) {
      found = this.build(numId);
      this.instances.set(numId, found);
    }
    return found;
  }

  /** The style's own properties (not inherited). */
  style(id: string): ParagraphStyle | undefined {
    return this.styles.get(id);
  }

  private build(numId: string): ListInstance | null {
    const num = this.nums.get(numId);
    const abstractId = num?.first('w:abstractNumId')?.attr('w:val');
    if (!num || abstractId == null) return null;
    const abstract = this.resolveAbstract(abstractId, new Set());
    if (!abstract) return null;
    const levels: (Level | undefined)[] = [];
    for (const lvl of abstract.el.all('w:lvl')) {
      const i = intOf(lvl) ?? 0;
      if (i >= 0 && i < 9) levels[i] = readLevel(lvl);
    }
    const startOverrides = new Map<number, number>();
    for (const o of num.all('w:lvlOverride')) {
      const i = Number(o.attr('w:ilvl') ?? '0');
      const lvl = o.first('w:lvl');
      if (lvl) levels[i] = readLevel(lvl);
      const start = intOf(o.first('w:startOverride'));
      if (start !== null) startOverrides.set(i, start);
      else if (lvl) startOverrides.set(i, levels[i]!.start);
    }
    return { numId, abstractId: abstract.id, levels, startOverrides };
  }

  /** An abstract numbering, following w:numStyleLink to the numbering style's list (once: no cycles). */
  private resolveAbstract(id: string, seen: Set<string>): { id: string; el: XmlElement } | null {
    const el = this.abstracts.get(id);
    if (!el || seen.has(id)) return null;
    seen.add(id);
    const link = el.first('w:numStyleLink')?.attr('w:val');
    if (link) {
      const numId = this.styles.get(link)?.numId;
      const target = numId ? this.nums.get(numId)?.first('w:abstractNumId')?.attr('w:val') : null;
      const resolved = target != null ? this.resolveAbstract(target, seen) : null;
      if (resolved) return resolved;
    }
    return { id, el };
  }
}

function readLevel(lvl: XmlElement): Level {
  return {
    start: intOf(lvl.first('w:start')) ?? 0,
    format: lvl.first('w:numFmt')?.attr('w:val') ?? 'decimal',
    text: lvl.first('w:lvlText')?.attr('w:val') ?? null,
    restart: intOf(lvl.first('w:lvlRestart')),
    legal: onOff(lvl.first('w:isLgl')),
    style: lvl.first('w:pStyle')?.attr('w:val') ?? null,
  };
}

/** An integer from w:val (or w:ilvl on a level), null when absent or not a number. */
function intOf(el: XmlElement | undefined | null): number | null {
  if (!el) return null;
  const v = el.attr('w:val') ?? el.attr('w:ilvl');
  if (v === null) return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : null;
}

function onOff(el: XmlElement | undefined | null): boolean {
  if (!el) return false;
  const v = el.attr('w:val');
  return v === null || v === '1' || v === 'true' || v === 'on';
}
