import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

/** Letters of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, and their presentation forms). */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

export function hasRightToLeft(text: string): boolean {
  return RTL_LETTER.test(text);
}

/** A piece of one line, in logical order, with its direction; pieces come in visual order, left to right. */
export interface VisualRun {
  text: string;
  rtl: boolean;
}

/**
 * The Unicode Bidirectional Algorithm for one paragraph: its base direction (from its first
 * strong letter) and, for any line of it (a [start, end) slice), the line's runs in visual
 * order (rule L2: from the highest level down to the lowest odd one, reverse every sequence at
 * that level or above). Each run keeps its characters in logical order: the font's shaper joins
 * Arabic letters only in logical order, and lays out a right-to-left run right to left itself.
 */
export class BidiParagraph {
  readonly rtl: boolean;
  private readonly levels: Uint8Array;

  constructor(private readonly text: string) {
    const embedding = bidi.getEmbeddingLevels(text);
    this.levels = embedding.levels;
    this.rtl = (embedding.paragraphs[0]?.level ?? 0) % 2 === 1;
  }

  visualRuns(start: number, end: number): VisualRun[] {
    const runs: { text: string; level: number }[] = [];
    for (let i = start; i < end;) {
      const level = this.levels[i]!;
      let j = i + 1;
      while (j < end && this.levels[j] === level) j++;
      runs.push({ text: this.text.slice(i, j), level });
      i = j;
    }
    const highest = Math.max(0, ...runs.map((r) => r.level));
    const lowestOdd = Math.min(...runs.map((r) => (r.level % 2 === 1 ? r.level : Infinity)));
    for (let level = highest; level >= lowestOdd && level > 0; level--) {
      for (let i = 0; i < runs.length;) {
        if (runs[i]!.level < level) {
          i++;
          continue;
        }
        let j = i;
        while (j < runs.length && runs[j]!.level >= level) j++;
        runs.splice(i, j - i, ...runs.slice(i, j).reverse());
        i = j;
      }
    }
    return runs.map((r) => ({ text: r.text, rtl: r.level % 2 === 1 }));
  }
}

/**
 * A right-to-left run without right-to-left letters (punctuation between Arabic words, say):
 * the shaper would lay it out left to right, so its characters are put in visual order here,
 * mirrored where Unicode says so (brackets).
 */
export function visualNeutrals(text: string): string {
  return [...mirrored(text)].reverse().join('');
}

/**
 * Rule L4: in a right-to-left run, characters with a mirror image (brackets, < >) take it:
 * the logical ")" after an Arabic word shows as "(" at its left. Fonts rarely carry the
 * `rtlm` feature that would do it, so it is done on the text.
 */
export function mirrored(text: string): string {
  let out = '';
  for (const c of text) out += bidi.getMirroredCharacter(c) ?? c;
  return out;
}
