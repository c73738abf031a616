import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namespaceProblems } from '../../../test/conformance/namespaces';
import { del, ins, minimalDocx, r, readPart } from '../../../test/support/docx-files';
import { compareDocx, openDocx } from '../index';

/**
 * Markup the engine moves keeps its namespaces (issue 22.1): a comparison copies older's deleted
 * text, properties and paragraphs into newer's package, and older may use prefixes newer never
 * declares (PowerTools' pt14:Unid on a held-out pair). Every part written must still parse with a
 * namespace-aware parser, and a prefix older let consumers ignore stays ignorable.
 */
const PT14 = 'http://powertools.codeplex.com/2011';
const DATE = '2025-01-01T00:00:00Z';

/** minimalDocx with extra declarations (and mc:Ignorable) on the document root. */
function docxDeclaring(body: string, declarations: Record<string, string>, ignorable: string[] = []): Uint8Array {
  const decl = Object.entries(declarations).map(([p, u]) => ` xmlns:${p}="${u}"`).join('');
  const xml = readPart(minimalDocx(body)).replace('<w:document ', `<w:document${decl}${ignorable.length ? ` mc:Ignorable="${ignorable.join(' ')}"` : ''} `);
  return minimalDocx('', { 'word/document.xml': xml });
}

function ignorableOf(docx: Uint8Array): string[] {
  return (/mc:Ignorable="([^"]*)"/.exec(readPart(docx))?.[1] ?? '').split(/\s+/).filter(Boolean);
}

describe('namespaces of moved markup', () => {
  const older = docxDeclaring(
    '<w:p pt14:Unid="p1"><w:pPr><w:jc w:val="center" pt14:Unid="j1"/></w:pPr><w:r pt14:Unid="r1"><w:rPr><w:b pt14:Unid="b1"/></w:rPr><w:t>Hello old world</w:t></w:r></w:p>' +
      '<w:p pt14:Unid="p2"><w:r pt14:Unid="r2"><w:t>A paragraph that goes</w:t></w:r></w:p>',
    { pt14: PT14 },
    ['pt14'],
  );
  const newer = minimalDocx(`<w:p>${r('Hello new world')}</w:p>`);

  it('the inputs are namespace-clean, and so is what the comparison writes in either direction', () => {
    expect(namespaceProblems(older)).toEqual([]);
    expect(namespaceProblems(newer)).toEqual([]);
    for (const [a, b] of [[older, newer], [newer, older]] as const) {
      const out = compareDocx(a, b, { date: DATE }).bytes;
      expect(namespaceProblems(out)).toEqual([]);
      expect(openDocx(out).revisionCount).toBeGreaterThan(0);
    }
    const out = compareDocx(older, newer, { date: DATE }).bytes;
    expect(readPart(out)).toContain(`xmlns:pt14="${PT14}"`);
    expect(readPart(out)).toContain('pt14:Unid="r1"');
    expect(ignorableOf(out)).toContain('pt14');
  });

  it('the untracked check (rejected views, newer keeps its revisions) too', () => {
    const tracked = minimalDocx(`<w:p>${r('Hello ')}${ins(1, r('new '))}${del(2, '<w:r><w:delText>old </w:delText></w:r>')}${r('world')}</w:p>`);
    const out = compareDocx(older, tracked, { date: DATE, view: 'rejected', keepNewerRevisions: true }).bytes;
    expect(namespaceProblems(out)).toEqual([]);
  });

  it('property: any foreign namespace older uses, ignorable or not, at the root or locally, is declared where its markup lands', () => {
    const holder = fc.constantFrom<string>('w:p', 'w:r', 'w:jc', 'w:b');
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/), fc.boolean(), fc.boolean(), fc.uniqueArray(holder, { minLength: 1 }), (suffix, ignorable, local, holders) => {
        const prefix = `x${suffix}`;
        const uri = `urn:test:${suffix}`;
        const at = (name: string) => (holders.includes(name) ? ` ${prefix}:a="1"` : '');
        const decl = local ? ` xmlns:${prefix}="${uri}"` : '';
        // Declared locally, the declaration sits on each paragraph that uses it (as DrawingML does).
        const para = (text: string) =>
          `<w:p${decl}${at('w:p')}><w:pPr><w:jc w:val="center"${at('w:jc')}/></w:pPr><w:r${at('w:r')}><w:rPr><w:b${at('w:b')}/></w:rPr><w:t>${text}</w:t></w:r></w:p>`;
        const body = para('Hello old world') + para('A paragraph that goes');
        const old = local ? minimalDocx(body) : docxDeclaring(body, { [prefix]: uri }, ignorable ? [prefix] : []);
        expect(namespaceProblems(old)).toEqual([]);
        const out = compareDocx(old, newer, { date: DATE }).bytes;
        expect(namespaceProblems(out)).toEqual([]);
        if (ignorable && !local && readPart(out).includes(`${prefix}:a=`)) expect(ignorableOf(out)).toContain(prefix);
      }),
      { seed: 22, numRuns: 60 },
    );
  });

  it('decisions keep a part that declares a prefix only locally parseable, byte for byte outside the change', () => {
    const body = `<w:p xmlns:x="urn:x" x:a="1">${r('Kept ')}${ins(1, `<w:r x:b="2"><w:t>inserted</w:t></w:r>`)}</w:p>`;
    const docx = minimalDocx(body);
    for (const verdict of ['accept', 'reject'] as const) {
      const doc = openDocx(docx);
      const ids = doc.changeIds();
      const out = doc.apply(verdict === 'accept' ? { accept: ids, reject: [] } : { accept: [], reject: ids }).toBytes();
      expect(namespaceProblems(out)).toEqual([]);
      expect(readPart(out)).toContain('<w:p xmlns:x="urn:x" x:a="1">');
    }
  });
});
