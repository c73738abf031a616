import fc from 'fast-check';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildKindSample } from '../fixture';
import { DocxError } from '../errors';
import { ingestDocx, openDocx } from '../index';
import { partNameProblem } from './part-names';

/** The one-revision sample with one more entry (a folder entry, ending in "/", is empty). */
const withEntry = (name: string, base = buildKindSample('insert')): Uint8Array =>
  zipSync({ ...(unzipSync(base) as Zippable), [name]: name.endsWith('/') ? new Uint8Array(0) : strToU8('<x/>') });

function refusal(bytes: Uint8Array): DocxError | null {
  try {
    openDocx(bytes);
    return null;
  } catch (error) {
    if (error instanceof DocxError) return error;
    throw error;
  }
}

describe('zip entry names must be OPC part names (issue 21 item 5)', () => {
  it('refuses path traversal, absolute and backslash names, naming the entry', () => {
    for (const name of ['../../x', '/abs/x', '..\\..\\y', 'word/../../x.xml', 'word/./document2.xml', 'word//x.xml', 'word/x.', 'word/...',
      'word/a%2Fb.xml', 'word/a%5cb.xml', 'word/a\u0000b.xml', 'C:\\evil.xml']) {
      const refused = refusal(withEntry(name));
      expect(refused?.code, name).toBe('invalid_docx');
      expect(refused?.message, name).toContain(JSON.stringify(name));
    }
  });

  it('refuses two entries whose names are equal ignoring case', () => {
    const refused = refusal(withEntry('WORD/Document.xml'));
    expect(refused?.code).toBe('invalid_docx');
    expect(refused?.message).toContain('"WORD/Document.xml"');
    expect(refused?.message).toContain('"word/document.xml"');
  });

  it('takes what real files hold: folder entries, spaces, non-ASCII, brackets', () => {
    for (const name of ['word/', 'word/media/', 'word/media/image 1.png', 'word/media/bild-ä.png', 'customXml/item1.xml', 'word/a.b.c.xml']) {
      expect(refusal(withEntry(name)), name).toBeNull();
    }
    expect(ingestDocx(withEntry('docProps/')).revisionCount).toBe(1);
    // A "folder" with content is a part named with a trailing "/", which no part name may be.
    expect(refusal(zipSync({ ...(unzipSync(buildKindSample('insert')) as Zippable), 'word/': strToU8('<x/>') }))?.code).toBe('invalid_docx');
  });

  it('agrees with the segment rules on any name', () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_\-[\]]{1,8}(\.[a-z]{1,4})?$/),
      fc.constantFrom('', '.', '..', 'a.', 'x%2f', 'y%5C', 'a\\b'),
    );
    fc.assert(fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean(), (segments, rooted) => {
      const name = (rooted ? '/' : '') + segments.join('/');
      const bad = rooted || segments.some((s) => s === '' || s.endsWith('.') || /%(2f|5c)/i.test(s) || s.includes('\\'));
      expect(partNameProblem(name) !== null).toBe(bad);
    }));
  });
});
