import type { PartScan } from '../revisions/sites';
import type { XmlElement } from '../xml/tree';

/**
 * A rewrite of the render variant that looks at a part's elements one by one (simple fields,
 * complex-script runs). Each stays its own module; `walkParts` takes them all through each part
 * once, so a 300-page draft is walked once rather than once per rewrite.
 */
export interface PartVisitor {
  /** Whether this rewrite reads the part at all. */
  reads(scan: PartScan): boolean;
  /**
   * An element, in document order. False: this visitor is done with what lies below it (the
   * others still see it), as `walk`'s callback.
   */
  enter(el: XmlElement): boolean;
}

/** At most this many visitors: which of them still read below an element is one bit each. */
const MAX_VISITORS = 30;

/**
 * Each part once, depth first in document order, every visitor that reads it seeing each element
 * it did not leave behind; a subtree no visitor reads below is not entered.
 */
export function walkParts(scans: readonly PartScan[], visitors: readonly PartVisitor[]): void {
  if (visitors.length > MAX_VISITORS) throw new Error(`walkParts takes at most ${MAX_VISITORS} visitors`);
  const elements: XmlElement[] = [];
  const readers: number[] = [];
  for (const scan of scans) {
    let all = 0;
    visitors.forEach((v, i) => {
      if (v.reads(scan)) all |= 1 << i;
    });
    if (all === 0) continue;
    elements.push(scan.doc.root);
    readers.push(all);
    while (elements.length) {
      const el = elements.pop()!;
      const mask = readers.pop()!;
      let below = 0;
      for (let i = 0; i < visitors.length; i++) {
        if (mask & (1 << i) && visitors[i]!.enter(el)) below |= 1 << i;
      }
      if (below === 0) continue;
      const kids = el.children;
      for (let i = kids.length - 1; i >= 0; i--) {
        const k = kids[i]!;
        if (k.kind === 1) {
          elements.push(k);
          readers.push(below);
        }
      }
    }
  }
}
