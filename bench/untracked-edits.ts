import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

/** The same document with `edits` words changed outside any tracked change, spread through the body. */
export function withUntrackedEdits(docx: Uint8Array, edits: number): Uint8Array {
  const files = unzipSync(docx);
  const xml = strFromU8(files['word/document.xml']!);
  // Plain runs only: a w:t that is not inside w:ins/w:del (those hold w:t too, inside w:ins).
  const plain = [...xml.matchAll(/<w:r>(?:<w:rPr>(?:(?!<\/w:rPr>).)*<\/w:rPr>)?<w:t xml:space="preserve">([A-Za-z]+) /g)]
    .filter((m) => !xml.slice(Math.max(0, m.index - 400), m.index).match(/<w:ins [^>]*>(?:(?!<\/w:ins>).)*$/));
  const step = Math.floor(plain.length / edits);
  let out = xml;
  for (let i = edits - 1; i >= 0; i--) {
    const m = plain[i * step]!;
    const at = m.index + m[0].length - m[1]!.length - 1;
    out = `${out.slice(0, at)}Amended${out.slice(at + m[1]!.length)}`;
  }
  files['word/document.xml'] = strToU8(out);
  return zipSync(files);
}
