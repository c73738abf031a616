/**
 * What a kept document reuses after a batch (the scan's blocks, the field units, the listing's
 * remembered words) against reading everything afresh, on generated contracts holding every kind
 * the benchmark draws (moves across paragraphs, proposals, tables, fields) and random batches.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBenchmarkContract } from '../fixture';
import { ingestDocx, openDocx, type OpenDocx } from '../index';
import { corpusFileNames, lacksShared, readCorpusFile } from '../../../test/support/shared-corpus';
import { DocxPackage } from '../package/package';
import { parseXml } from '../xml/parse';
import { remove, XmlDocument, type XmlElement } from '../xml/tree';
import { groupChanges } from './changes';
import { scanPart, type PartScan, type Site } from './sites';

/** The facts of a site that decide, list and group it, with its elements by identity. */
function siteFacts(s: Site) {
  return {
    type: s.type, el: s.el, id: s.id, pre: s.pre, order: s.order, moveName: s.moveName,
    shadows: s.shadows.map((x) => x.el), end: s.boundary?.end ?? null, target: s.boundary?.target ?? null,
  };
}

function scansOf(doc: OpenDocx): PartScan[] {
  return (doc as unknown as { scans: PartScan[] }).scans;
}

const draft = fc.record({
  seed: fc.integer({ min: 1, max: 10_000 }),
  revisions: fc.integer({ min: 40, max: 160 }),
});

describe('a kept document after a batch', () => {
  it('scans, groups and lists what a scan from scratch of the same tree, and a reopened copy, give', () => {
    fc.assert(
      fc.property(draft, fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 12 }), fc.boolean()), { minLength: 1, maxLength: 4 }), ({ seed, revisions }, batches) => {
        const docx = ingestDocx(buildBenchmarkContract({ pages: 4, revisions, seed })).bytes;
        const kept = openDocx(docx);
        kept.revisions();
        for (const [where, size, accept] of batches) {
          const ids = kept.changeIds();
          if (ids.length === 0) break;
          const from = Math.floor(where * ids.length);
          const pick = ids.slice(from, from + size);
          kept.apply(accept ? { accept: pick, reject: [] } : { accept: [], reject: pick });
          const scans = scansOf(kept);
          const afresh = scans.map((s) => scanPart(s.part, s.role, s.doc));
          expect(scans.map((s) => s.sites.map(siteFacts))).toEqual(afresh.map((s) => s.sites.map(siteFacts)));
          expect(scans.map((s) => s.ranges)).toEqual(afresh.map((s) => s.ranges));
          const grouped = (list: PartScan[]) => groupChanges(list).map((c) => ({ id: c.changeId, kind: c.kind, sites: c.sites.map(siteFacts) }));
          expect(grouped(scans)).toEqual(grouped(afresh));
          const listed = kept.revisions();
          expect(JSON.stringify(listed)).toBe(JSON.stringify(openDocx(kept.toBytes()).revisions()));
        }
      }),
      { numRuns: 40 },
    );
  });
});

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * Move ranges opened in one paragraph and closed in a later one: a moved paragraph mark takes the
 * name of the range open around it (or the last one opened), so a paragraph no batch touched
 * lists another move when a range before it went. Which ranges and paragraphs are generated, and
 * which range starts are then removed, is drawn.
 */
describe('a scan reusing the blocks of the last one', () => {
  const paragraph = fc.record({
    opens: fc.constantFrom<string | null>(null, null, 'm1', 'm2'),
    mark: fc.boolean(),
    moved: fc.boolean(),
    closes: fc.boolean(),
  });
  it('gives moved marks and moved runs the move names a scan from scratch gives', () => {
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 2, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (paras, dropStart) => {
        let id = 10;
        const body = paras.map((q, i) => {
          const start = q.opens ? `<w:moveFromRangeStart w:id="${i + 1}" w:name="${q.opens}"/>` : '';
          const mark = q.mark ? `<w:pPr><w:rPr><w:moveFrom w:id="${id++}" w:author="a"/></w:rPr></w:pPr>` : '';
          const run = q.moved ? `<w:moveFrom w:id="${id++}" w:author="a"><w:r><w:t>x${i}</w:t></w:r></w:moveFrom>` : '<w:r><w:t>y</w:t></w:r>';
          const end = q.closes ? `<w:moveFromRangeEnd w:id="${i + 1}"/>` : '';
          return `<w:p>${mark}${start}${run}${end}</w:p>`;
        }).join('');
        const doc = parseXml(`<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`);
        const first = scanPart('word/document.xml', 'document', doc);
        const starts = doc.root.all('w:body')[0]!.elements().flatMap((p) => p.elements().filter((e) => e.name === 'w:moveFromRangeStart'));
        starts.forEach((s, i) => {
          if (dropStart[i % dropStart.length]) remove(s);
        });
        const reused = scanPart('word/document.xml', 'document', doc, first);
        const afresh = scanPart('word/document.xml', 'document', doc);
        expect(reused.sites.map(siteFacts)).toEqual(afresh.sites.map(siteFacts));
        // And again from the reused scan, nothing changed since.
        expect(scanPart('word/document.xml', 'document', doc, reused).sites.map(siteFacts)).toEqual(afresh.sites.map(siteFacts));
      }),
      { numRuns: 300 },
    );
  });
});

/** Where an element stands under its root: the child indices down to it. */
function pathOf(el: XmlElement): number[] {
  const path: number[] = [];
  for (let e = el; e.parent; e = e.parent) path.unshift(e.parent.children.indexOf(e));
  return path;
}

/** A scan's sites by place, comparable across two trees of the same markup. */
function sitesByPlace(scan: PartScan) {
  return scan.sites.map((s) => ({
    type: s.type, id: s.id, pre: s.pre, order: s.order, moveName: s.moveName, at: pathOf(s.el),
    shadows: s.shadows.map((x) => pathOf(x.el)), end: s.boundary?.end ? pathOf(s.boundary.end) : null,
    target: s.boundary?.target ? pathOf(s.boundary.target) : null,
  }));
}

/**
 * The scan skips a clean element whose source text holds no notable tag; a deep copy of the tree
 * is all created elements (no source to look at), so its scan walks everything: both must find
 * the same sites at the same places.
 */
function expectSkippingFindsAll(bytes: Uint8Array): void {
  for (const { part, doc } of DocxPackage.open(bytes).stories()) {
    const copy = doc.root.cloneDeep();
    const walked = scanPart(part.name, part.role, new XmlDocument('', [copy], copy));
    const skipped = scanPart(part.name, part.role, doc);
    expect(sitesByPlace(skipped), part.name).toEqual(sitesByPlace(walked));
    expect(skipped.ranges.map(pathOf), part.name).toEqual(walked.ranges.map(pathOf));
  }
}

describe('a scan skipping what holds no notable tag', () => {
  it('finds what a walk of every element finds, on generated contracts', () => {
    fc.assert(
      fc.property(draft, ({ seed, revisions }) => expectSkippingFindsAll(ingestDocx(buildBenchmarkContract({ pages: 4, revisions, seed })).bytes)),
      { numRuns: 25 },
    );
  });

  it('finds what a walk of every element finds, on the corpus', () => {
    if (lacksShared('the scan on the corpus', 'files')) return;
    for (const name of corpusFileNames()) {
      let bytes: Uint8Array;
      try {
        bytes = ingestDocx(readCorpusFile(name)).bytes;
      } catch {
        continue; // refused on open (the hostile files): nothing to scan
      }
      expectSkippingFindsAll(bytes);
    }
  });
});
