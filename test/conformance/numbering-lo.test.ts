/**
 * List labels (src/docx/numbering) against the labels LibreOffice prints: its text export
 * (`soffice --headless --convert-to txt:Text`) writes each numbered paragraph as its label, a
 * space and its text, in the markup view (deleted and inserted text both shown), as the engine
 * counts. For every corpus file with numbering (the shared corpus, skipped with a message when
 * absent: test/support/shared-corpus.ts), and for the numbering sample
 * (test/support/numbered-docx.ts), each numbered paragraph (bullets aside: LibreOffice's text
 * export writes its own bullet characters) is found in LibreOffice's lines, in order, by its text,
 * and the label before the text is compared. Outputs are cached in .tmp/lo-txt by the input's sha1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDocx } from '../../src/docx/index';
import { visibleText } from '../../src/docx/revisions/preview';
import { numberedSample } from '../support/numbered-docx';
import { cacheKey, libreOfficeCacheDir, libreOfficeVersion } from '../support/libreoffice-cache';
import { corpusFileNames, lacksShared, readCorpusFile } from '../support/shared-corpus';

// LibreOffice's text of each input, kept between runs (test/support/libreoffice-cache.ts).
const HAS_LO = libreOfficeVersion() !== null;
const CACHE = HAS_LO ? libreOfficeCacheDir('txt')! : '';

/**
 * Where LibreOffice (7.4 here) counts otherwise than Word on the sample, by paragraph text: the
 * engine follows Word and ECMA-376; the test checks each difference is still there.
 */
const KNOWN_SAMPLE_DIFFERENCES: Record<string, string> = {
  'Legal numbering in decimal': 'w:isLgl (legal numbering: "1.1" under "Article I"): LibreOffice 7.4 ignores it and writes "I.1".',
  'Legal numbering again': 'w:isLgl again: LibreOffice writes "II.1" where Word writes "2.1".',
  'A level bound to its style':
    'A style with a numId and no ilvl, bound to level 3 by that level\'s w:pStyle (17.9.23): Word numbers it at level 3 ("I.1.1"); LibreOffice at level 1.',
  'Second article heading': 'Follows from the level bound to its style: LibreOffice counted that paragraph as an article ("Article III").',
  'its sub item goes on': 'w:lvlRestart 0 (the level never restarts): Word goes on with "b)"; LibreOffice restarts at "a)".',
};

const norm = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

/** LibreOffice's text export of each input (null where it cannot load it), converted in one run. */
function loText(inputs: Map<string, Uint8Array>): Map<string, string | null> {
  mkdirSync(CACHE, { recursive: true });
  const sha = new Map([...inputs].map(([name, bytes]) => [name, cacheKey(bytes)]));
  const missing = [...inputs].filter(([name]) => !existsSync(path.join(CACHE, `${sha.get(name)}.txt`)) && !existsSync(path.join(CACHE, `${sha.get(name)}.fail`)));
  if (missing.length) {
    const dir = mkdtempSync(path.join(tmpdir(), 'lo-txt-'));
    try {
      for (const [name, bytes] of missing) writeFileSync(path.join(dir, `${sha.get(name)}.docx`), bytes);
      spawnSync('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'txt:Text', '--outdir', dir,
        ...missing.map(([name]) => path.join(dir, `${sha.get(name)}.docx`))], { timeout: 300_000 });
      for (const [name] of missing) {
        const out = path.join(dir, `${sha.get(name)}.txt`);
        if (existsSync(out)) writeFileSync(path.join(CACHE, `${sha.get(name)}.txt`), readFileSync(out));
        else writeFileSync(path.join(CACHE, `${sha.get(name)}.fail`), '');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return new Map([...inputs].map(([name]) => {
    const file = path.join(CACHE, `${sha.get(name)}.txt`);
    return [name, existsSync(file) ? readFileSync(file, 'utf8').replace(/^\uFEFF/, '') : null];
  }));
}

interface Compared {
  text: string;
  ours: string;
  lo: string;
}

/** Our numbered paragraphs (bullets aside) beside the label LibreOffice prints before the same text. */
function compare(docx: Uint8Array, loTxt: string): Compared[] {
  const lines = loTxt.split('\n').map(norm);
  const out: Compared[] = [];
  let at = 0;
  for (const [p, label] of openDocx(docx).paragraphLabels()) {
    const text = norm(visibleText(p));
    if (!text) continue;
    let i = at;
    while (i < lines.length && !lines[i]!.endsWith(text)) i++;
    if (i >= lines.length) continue; // not found (LibreOffice laid the text out otherwise): not compared
    at = i + 1; // bullets take their line too, so the next paragraph of the same text finds its own
    if (label.bullet || !label.label) continue;
    out.push({ text, ours: label.label, lo: lines[i]!.slice(0, lines[i]!.length - text.length).trim() });
  }
  return out;
}

describe.skipIf(!HAS_LO)('list labels against LibreOffice', () => {
  it.skipIf(lacksShared('list labels against LibreOffice on the corpus', 'files'))('agrees with LibreOffice on the numbered paragraphs of the corpus files', () => {
    const numbered = new Map<string, Uint8Array>();
    for (const name of corpusFileNames()) {
      const bytes = readCorpusFile(name);
      if (openDocx(bytes).paragraphLabels().size > 0) numbered.set(name, bytes);
    }
    const texts = loText(numbered);
    let agree = 0;
    let total = 0;
    const disagreements: string[] = [];
    for (const [name, bytes] of numbered) {
      const lo = texts.get(name);
      if (lo == null) {
        console.log(`LibreOffice cannot load ${name}: not compared`);
        continue;
      }
      for (const c of compare(bytes, lo)) {
        total++;
        if (c.ours === c.lo) agree++;
        else disagreements.push(`${name}: ours "${c.ours}", LibreOffice "${c.lo}" before "${c.text.slice(0, 50)}"`);
      }
    }
    console.log(`list labels: ${agree}/${total} numbered paragraphs of ${numbered.size} corpus files agree with LibreOffice`);
    for (const d of disagreements) console.log(`  ${d}`);
    expect(total).toBeGreaterThan(0);
    expect(disagreements).toEqual([]);
  }, 300_000);

  it('agrees with LibreOffice on the numbering sample, but for the known differences', () => {
    const sample = numberedSample();
    const lo = loText(new Map([['sample', sample.docx]])).get('sample');
    expect(lo).not.toBeNull();
    const compared = compare(sample.docx, lo!);
    const expectedNumbered = sample.paragraphs.filter((p) => p.label !== null && p.label !== '•');
    expect(compared.map((c) => c.text)).toEqual(expectedNumbered.map((p) => p.text));
    const differing = compared.filter((c) => c.ours !== c.lo);
    console.log(`numbering sample: ${compared.length - differing.length}/${compared.length} labels agree with LibreOffice`);
    expect(differing.map((c) => c.text).sort()).toEqual(Object.keys(KNOWN_SAMPLE_DIFFERENCES).sort());
  }, 300_000);
});
