/**
 * Pages as Word last laid the document out (revisions/pages.ts): counted from its
 * w:lastRenderedPageBreak marks up to each change; none when the file holds no such mark.
 */
import { describe, expect, it } from 'vitest';
import { ingestedDrafts } from '../../../test/support/corpus-drafts';
import { minimalDocx, r } from '../../../test/support/docx-files';
import { corpusFileNames, lacksShared } from '../../../test/support/shared-corpus';
import { openDocx } from '../index';

const BY = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';

describe('the page of each change as Word last laid the document out', () => {
  it('counts the rendered page breaks before each change', () => {
    const doc = openDocx(minimalDocx(
      `<w:p><w:ins w:id="1" ${BY}>${r('one')}</w:ins></w:p>` +
        `<w:p><w:r><w:lastRenderedPageBreak/><w:t>two</w:t></w:r><w:del w:id="2" ${BY}><w:r><w:delText>gone</w:delText></w:r></w:del></w:p>` +
        `<w:p><w:pPr><w:rPr><w:ins w:id="3" ${BY}/></w:rPr></w:pPr>${r('still two')}</w:p>` +
        `<w:p><w:r><w:br w:type="page"/></w:r></w:p><w:p><w:r><w:lastRenderedPageBreak/><w:t>three</w:t></w:r><w:ins w:id="4" ${BY}>${r('x')}</w:ins></w:p>`,
    ));
    expect(Object.fromEntries(doc.pages())).toEqual({ c1: 1, c2: 2, c3: 2, c4: 3 });
  });

  it('says nothing for a file Word never laid out (no rendered page breaks)', () => {
    const doc = openDocx(minimalDocx(`<w:p><w:ins w:id="1" ${BY}>${r('one')}</w:ins></w:p><w:p><w:r><w:br w:type="page"/></w:r></w:p><w:p><w:ins w:id="2" ${BY}>${r('two')}</w:ins></w:p>`));
    expect(doc.pages().size).toBe(0);
  });

  const files = lacksShared('pages of changes on the corpus', 'files') ? [] : corpusFileNames();
  it.skipIf(!files.length)('on the corpus: pages never go down in document order', () => {
    let laidOut = 0;
    for (const { file, bytes } of ingestedDrafts(files)) {
      const doc = openDocx(bytes);
      const pages = doc.pages();
      if (!pages.size) continue;
      laidOut++;
      const main = doc.revisions().filter((rev) => pages.has(rev.change_id)).map((rev) => pages.get(rev.change_id)!);
      expect(main, file).toEqual([...main].sort((a, b) => a - b));
    }
    console.log(`pages: ${laidOut} of ${files.length} corpus files laid out by Word`);
  });
});
