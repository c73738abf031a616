import { describe, expect, it } from 'vitest';
import { buildRenderVariant, listRevisions } from '../index';
import { buildKindSample } from '../fixture';
import { withStyleChange } from '../../../test/support/document-wide-docx';
import { changeBookmarkName } from '../../contract/bookmark';
import { strFromU8, unzipSync } from 'fflate';

describe('document-wide changes', () => {
  it('marks a change in the styles part as document-wide, and no change of the text', () => {
    const docx = withStyleChange(buildKindSample('insert'));
    const revisions = listRevisions(docx);
    const wide = revisions.filter((r) => r.document_wide);
    expect(wide).toHaveLength(1);
    expect(wide[0]).toMatchObject({ kind: 'r-prop-change', author: 'Styles Author' });
    const inText = revisions.filter((r) => !r.document_wide);
    expect(inText.length).toBeGreaterThan(0);
    for (const r of inText) expect(r).not.toHaveProperty('document_wide');
    // It has no bookmark in the render variant (nothing to jump to); the others do.
    const variant = strFromU8(unzipSync(buildRenderVariant(docx))['word/document.xml']!);
    expect(variant).not.toContain(changeBookmarkName(wide[0]!.change_id));
    for (const r of inText) expect(variant).toContain(changeBookmarkName(r.change_id));
  });
});
