import { changeClock, lastChanged, type XmlElement } from '../xml/tree';
import type { Level, ListInstance, NumberingDefinitions } from './definitions';
import { bulletText, formatNumber } from './formats';

/**
 * List labels as Word shows them, counted through a story's paragraphs in document order
 * (in tables and content controls too; not in text boxes, nor in mc:Fallback copies): "7.", "7.3", "(a)", "iv.", "•".
 *
 * Word's rules, as implemented:
 * - a paragraph is numbered by its own w:numPr, else by its style's (through w:basedOn); numId 0
 *   removes numbering; the level is the paragraph's w:ilvl, else the style's, else the level of the
 *   list bound to the paragraph's style (w:lvl/w:pStyle), else 0;
 * - every num pointing at one abstract numbering shares its counters (a list continues across
 *   numIds); a num with w:lvlOverride restarts the overridden levels where it is first used, and
 *   the list goes on from there under either numId (as LibreOffice counts too);
 * - a level starts at w:start and restarts after a level before it is used (w:lvlRestart narrows
 *   which; 0: never);
 * - w:lvlText's %n is level n's number in level n's format, or in decimal for a legal level (w:isLgl);
 *   a level never used yet counts as its start.
 * Tracked changes are shown as in Word's markup view: every paragraph counts, inserted and deleted.
 */
export interface ParagraphLabel {
  /** The label as the paragraph shows it ("(a)"). */
  label: string;
  /** The label with the levels above it that it does not repeat itself ("7.3(a)"): how a lawyer cites it. Equal to `label` at the top level. */
  clause: string;
  /** 0-based list level. */
  level: number;
  bullet: boolean;
}

interface Counters {
  values: (number | null)[];
  /** The label each level showed last (for the citation of a deeper level). */
  shown: (string | null)[];
}

/**
 * Which list and level each paragraph is numbered with, as `listOf` last said, for one
 * `NumberingDefinitions`: a later count over the same definitions reads again only paragraphs
 * changed since (markDirty's stamps), not the style chain of every paragraph.
 */
export type ListMemo = WeakMap<XmlElement, { at: number; list: ReturnType<typeof listOf> }>;

/**
 * Labels of every numbered paragraph under `root` (a part's root or any element). `lists`, kept
 * by the caller with `defs` (and dropped with them), spares reading unchanged paragraphs again.
 */
export function paragraphLabels(root: XmlElement, defs: NumberingDefinitions, lists?: ListMemo): Map<XmlElement, ParagraphLabel> {
  const labels = new Map<XmlElement, ParagraphLabel>();
  const counters = new Map<string, Counters>();
  const usedInstances = new Set<string>();
  if (defs.isEmpty) return labels;
  const visit = (el: XmlElement): void => {
    if (el.name === 'w:p') {
      const label = labelOf(el, defs, counters, usedInstances, lists);
      if (label) labels.set(el, label);
      return; // a paragraph's runs hold no paragraphs to count (text boxes are stories of their own)
    }
    if (el.name === 'mc:Fallback' || el.name === 'w:sectPr' || el.name === 'w:tblPr' || el.name === 'w:trPr' || el.name === 'w:tcPr') return;
    for (const c of el.children) if (c.kind === 1) visit(c);
  };
  visit(root);
  return labels;
}

function rememberedListOf(p: XmlElement, defs: NumberingDefinitions, lists: ListMemo): ReturnType<typeof listOf> {
  const known = lists.get(p);
  if (known && lastChanged(p) <= known.at) return known.list;
  const list = listOf(p, defs);
  lists.set(p, { at: changeClock(), list });
  return list;
}

/** The list and level a paragraph is numbered with, if any. */
export function listOf(p: XmlElement, defs: NumberingDefinitions): { instance: ListInstance; level: number } | null {
  const pPr = p.first('w:pPr');
  const numPr = pPr?.first('w:numPr');
  const styleId = pPr?.first('w:pStyle')?.attr('w:val') ?? defs.defaultStyle;
  let numId = numPr?.first('w:numId')?.attr('w:val') ?? null;
  let ilvl = intVal(numPr?.first('w:ilvl'));
  if (numId === null) {
    // The style chain supplies the list, and the level when the paragraph does not say it.
    const seen = new Set<string>();
    for (let s = styleId; s && !seen.has(s); ) {
      seen.add(s);
      const style = defs.style(s);
      if (!style) break;
      ilvl ??= style.ilvl;
      if (style.numId !== null) {
        numId = style.numId;
        break;
      }
      s = style.basedOn;
    }
  }
  if (numId === null || numId === '0') return null;
  const instance = defs.instance(numId);
  if (!instance) return null;
  if (ilvl === null && styleId) {
    const bound = instance.levels.findIndex((l) => l?.style === styleId);
    if (bound >= 0) ilvl = bound;
  }
  const level = Math.min(Math.max(ilvl ?? 0, 0), 8);
  return instance.levels[level] ? { instance, level } : null;
}

function labelOf(p: XmlElement, defs: NumberingDefinitions, all: Map<string, Counters>, used: Set<string>, lists?: ListMemo): ParagraphLabel | null {
  const list = lists ? rememberedListOf(p, defs, lists) : listOf(p, defs);
  if (!list) return null;
  const { instance, level } = list;
  let counters = all.get(instance.abstractId);
  if (!counters) {
    counters = { values: new Array<number | null>(9).fill(null), shown: new Array<string | null>(9).fill(null) };
    all.set(instance.abstractId, counters);
  }
  const starts = (i: number) => instance.startOverrides.get(i) ?? instance.levels[i]?.start ?? 0;
  if (!used.has(instance.numId)) {
    used.add(instance.numId);
    // A num that overrides a level's start begins that level anew.
    for (const i of instance.startOverrides.keys()) counters.values[i] = null;
  }
  const { values } = counters;
  values[level] = values[level] === null ? starts(level) : values[level]! + 1;
  for (let deeper = level + 1; deeper < 9; deeper++) {
    const restart = instance.levels[deeper]?.restart ?? null;
    if (restart === 0) continue;
    if (restart === null || level < restart) {
      values[deeper] = null;
      counters.shown[deeper] = null;
    }
  }
  const def = instance.levels[level]!;
  const bullet = def.format === 'bullet';
  const label = bullet ? bulletText(def.text ?? '') : expand(def, instance, values, starts);
  counters.shown[level] = label;
  return { label, clause: bullet ? label : citation(level, def, label, counters.shown, instance), level, bullet };
}

/** lvlText with each %n replaced by level n's number. */
function expand(def: Level, instance: ListInstance, values: readonly (number | null)[], starts: (i: number) => number): string {
  if (def.text === null) return '';
  return def.text.replace(/%([1-9])/g, (_, n: string) => {
    const i = Number(n) - 1;
    const value = values[i] ?? starts(i);
    const format = def.legal ? 'decimal' : instance.levels[i]?.format ?? 'decimal';
    return formatNumber(value, format === 'bullet' ? 'decimal' : format);
  });
}

/**
 * How the paragraph is cited: its label preceded by the labels of the levels above that its
 * own text does not include ("7.3" + "(a)" = "7.3(a)"; "7." + "(a)" = "7(a)"), each without its
 * trailing period, as Word's "paragraph number (full context)" reference reads.
 */
function citation(level: number, def: Level, label: string, shown: readonly (string | null)[], instance: ListInstance): string {
  let covered = lowestReferenced(def.text, level);
  let out = label;
  for (let i = covered - 1; i >= 0; i--) {
    if (i >= covered) continue;
    const above = shown[i];
    const aboveDef = instance.levels[i];
    if (!above || !aboveDef || aboveDef.format === 'bullet') continue;
    out = above.replace(/[.\s]+$/, '') + out;
    covered = lowestReferenced(aboveDef.text, i);
  }
  return out.trim();
}

/** The lowest level a label pattern shows (its own level when it shows none). */
function lowestReferenced(text: string | null, own: number): number {
  let lowest = own;
  for (const m of (text ?? '').matchAll(/%([1-9])/g)) lowest = Math.min(lowest, Number(m[1]) - 1);
  return lowest;
}

function intVal(el: XmlElement | null | undefined): number | null {
  const v = el?.attr('w:val');
  if (v == null) return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : null;
}
