import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { flowPages, NOTE_SEPARATOR_PX, PageFlow, type FlowBlock } from './flow';

/** Blocks of the given heights stacked with no gaps. */
function stack(heights: number[], extra: (i: number) => Partial<FlowBlock> = () => ({})): FlowBlock[] {
  let y = 0;
  return heights.map((h, i) => {
    const b = { top: y, bottom: y + h, notes: [], keepNext: false, ...extra(i) };
    y += h;
    return b;
  });
}

describe('page flow', () => {
  it('fills each page up to its height and starts a page with the block that does not fit', () => {
    const pages = flowPages(stack([40, 40, 40, 40, 40]), 100);
    expect(pages.map((p) => p.pieces.map((x) => x.block))).toEqual([[0, 1], [2, 3], [4]]);
  });

  it('every block is placed once, in order, and no page holds more than fits unless it holds one block', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 100, max: 400 }), (heights, height) => {
        const pages = flowPages(stack(heights), height);
        const order = pages.flatMap((p) => p.pieces.map((x) => x.block));
        expect(order).toEqual(heights.map((_, i) => i));
        for (const p of pages) {
          const sum = p.pieces.reduce((s, x) => s + heights[x.block]!, 0);
          expect(p.pieces.length === 1 || sum <= height).toBe(true);
        }
      }),
    );
  });

  it('keeps a heading with the paragraph after it', () => {
    const pages = flowPages(stack([40, 40, 20, 40], (i) => ({ keepNext: i === 2 })), 100);
    expect(pages.map((p) => p.pieces.map((x) => x.block))).toEqual([[0, 1], [2, 3]]);
  });

  it('breaks a page that is one chain of keep-with-next blocks where it is full', () => {
    const pages = flowPages(stack([30, 30, 30, 30, 30, 30], () => ({ keepNext: true })), 100);
    expect(pages.map((p) => p.pieces.map((x) => x.block))).toEqual([[0, 1, 2], [3, 4, 5]]);
  });

  it('gives a footnote room on the page of its reference', () => {
    const pages = flowPages(stack([30, 30, 30, 30], (i) => ({ notes: i === 2 ? [20] : [] })), 100);
    // 90 of text fits, but not with the note and its separator: block 2 and its note go to the next page.
    expect(pages.map((p) => p.pieces.map((x) => x.block))).toEqual([[0, 1], [2, 3]]);
    expect(pages[1]!.notes).toBe(20 + NOTE_SEPARATOR_PX);
  });

  it('breaks a table between rows and repeats its header row', () => {
    const rows = [0, 1, 2, 3, 4, 5].map((k) => ({ top: 20 + k * 30, bottom: 50 + k * 30, notes: [] }));
    const pages = flowPages([{ top: 0, bottom: 20, notes: [], keepNext: false }, { top: 20, bottom: 200, notes: [], keepNext: false, rows, headerRows: 1 }], 100);
    expect(pages.map((p) => p.pieces)).toEqual([
      [{ block: 0 }, { block: 1, rows: { from: 0, to: 2 } }],
      // The header row (30) repeats: two body rows fit under it.
      [{ block: 1, rows: { from: 2, to: 4 } }],
      [{ block: 1, rows: { from: 4, to: 6 } }],
    ]);
  });

  it('breaks a paragraph between lines with two lines on each side', () => {
    const lines = (top: number, n: number) => Array.from({ length: n - 1 }, (_, k) => top + (k + 1) * 10);
    const pages = flowPages([{ top: 0, bottom: 70, notes: [], keepNext: false }, { top: 70, bottom: 130, notes: [], keepNext: false, lineTops: lines(70, 6) }], 100);
    expect(pages.map((p) => p.pieces)).toEqual([
      [{ block: 0 }, { block: 1, lines: { from: 70, to: 100 } }],
      [{ block: 1, lines: { from: 100, to: 130 } }],
    ]);
    // Only one line would fit: the whole paragraph moves (no orphan).
    const moved = flowPages([{ top: 0, bottom: 85, notes: [], keepNext: false }, { top: 85, bottom: 145, notes: [], keepNext: false, lineTops: lines(85, 6) }], 100);
    expect(moved.map((p) => p.pieces)).toEqual([[{ block: 0 }], [{ block: 1 }]]);
  });

  it('gives each page the height it holds (a first page whose tall header takes from it holds less)', () => {
    const flow = new PageFlow((k) => (k === 0 ? 50 : 100));
    for (const b of stack([40, 40, 40, 40, 40])) flow.add(b);
    expect(flow.end().map((p) => p.pieces.map((x) => x.block))).toEqual([[0], [1, 2], [3, 4]]);
  });

  it('completes pages as blocks come: a completed page never changes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 40 }), (heights) => {
        const blocks = stack(heights, (i) => ({ keepNext: i % 3 === 0 }));
        const flow = new PageFlow(200);
        const seen: string[] = [];
        for (const b of blocks) {
          flow.add(b);
          // Every page completed so far is as it was when it was completed.
          flow.pages.forEach((p, k) => {
            const now = JSON.stringify(p.pieces);
            if (k < seen.length) expect(now).toBe(seen[k]);
            else seen.push(now);
          });
        }
        expect(flow.end().map((p) => JSON.stringify(p.pieces))).toEqual(flowPages(blocks, 200).map((p) => JSON.stringify(p.pieces)));
      }),
    );
  });
});

describe('space before at the top of a page', () => {
  it('is dropped when a paragraph opens a page after a natural break, kept on the first page', () => {
    // Pages of 100 px; each paragraph 40 px high of which 20 px is its space before.
    const blocks = [0, 1, 2, 3].map((i) => ({ top: i * 40, bottom: i * 40 + 40, notes: [], keepNext: false, spaceBefore: 20 }));
    const pages = flowPages(blocks, 100);
    expect(pages.map((p) => p.pieces.map((x) => x.block))).toEqual([[0, 1], [2, 3]]);
    // Without the drop, the second page's two paragraphs (80 px) still fit; with 60 px pages they would not.
    expect(flowPages(blocks, 60).map((p) => p.pieces.map((x) => x.block))).toEqual([[0], [1, 2], [3]]);
  });
});

/** The page each block (its first piece) is on. */
function pageOf(pages: { pieces: { block: number }[] }[]): Map<number, number> {
  const out = new Map<number, number>();
  pages.forEach((p, k) => p.pieces.forEach((x) => out.has(x.block) || out.set(x.block, k)));
  return out;
}

describe('Word\'s keeps, widows and orphans', () => {
  it('a keep-with-next paragraph starts on the page of the block after it (chains shorter than a page)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ h: fc.integer({ min: 5, max: 50 }), keep: fc.boolean() }), { minLength: 2, maxLength: 60 }), (spec) => {
        // At most two keep-with-next paragraphs in a row: no chain fills a page of 200.
        const keeps = spec.map((s, i) => s.keep && !(spec[i - 1]?.keep && spec[i - 2]?.keep));
        const blocks = stack(spec.map((s) => s.h), (i) => ({ keepNext: keeps[i]! }));
        const on = pageOf(flowPages(blocks, 200));
        keeps.forEach((keep, i) => {
          if (keep && i + 1 < blocks.length) expect(on.get(i)).toBe(on.get(i + 1));
        });
      }),
    );
  });

  it('widow and orphan control never leaves a single line of a paragraph on a page', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ lines: fc.integer({ min: 1, max: 30 }), line: fc.integer({ min: 8, max: 20 }) }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 120, max: 400 }),
        (spec, height) => {
          let y = 0;
          const blocks: FlowBlock[] = spec.map(({ lines, line }) => {
            const top = y;
            y += lines * line;
            return { top, bottom: y, notes: [], keepNext: false, lineTops: Array.from({ length: lines - 1 }, (_, k) => top + (k + 1) * line) };
          });
          for (const page of flowPages(blocks, height)) {
            for (const piece of page.pieces) {
              if (!piece.lines) continue;
              const b = blocks[piece.block]!;
              const line = spec[piece.block]!.line;
              // Each part of a broken paragraph holds at least two of its lines.
              expect(Math.round((piece.lines.to - piece.lines.from) / line)).toBeGreaterThanOrEqual(2);
              expect(piece.lines.from).toBeGreaterThanOrEqual(b.top);
            }
          }
        },
      ),
    );
  });

  it('lets a paragraph\'s space after run past the foot of the page, as Word does', () => {
    // 100 px pages: the second paragraph's text ends at 95, its 20 px after at 115.
    const blocks: FlowBlock[] = [
      { top: 0, bottom: 60, notes: [], keepNext: false },
      { top: 60, bottom: 115, notes: [], keepNext: false, spaceAfter: 20 },
      { top: 115, bottom: 140, notes: [], keepNext: false },
    ];
    expect(flowPages(blocks, 100).map((p) => p.pieces.map((x) => x.block))).toEqual([[0, 1], [2]]);
    // Without it the paragraph would go over.
    expect(flowPages(blocks.map((b) => ({ ...b, spaceAfter: 0 })), 100).map((p) => p.pieces.map((x) => x.block))).toEqual([[0], [1, 2]]);
  });
});
