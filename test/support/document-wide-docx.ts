import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

/**
 * `docx` with one tracked formatting change in a style's run properties (styles.xml): a
 * change that applies to the whole document and has no place in its text.
 */
export function withStyleChange(docx: Uint8Array, id = 9001, author = 'Styles Author'): Uint8Array {
  const files = unzipSync(docx);
  const styles = strFromU8(files['word/styles.xml']!);
  const at = styles.indexOf('</w:rPr></w:style>');
  if (at < 0) throw new Error('no style with run properties to change');
  const change = `<w:rPrChange w:id="${id}" w:author="${author}" w:date="2025-01-01T00:00:00Z"><w:rPr/></w:rPrChange>`;
  files['word/styles.xml'] = strToU8(styles.slice(0, at) + change + styles.slice(at));
  return zipSync(files);
}
