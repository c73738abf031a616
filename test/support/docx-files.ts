/**
 * Helpers for the engine's tests only (imported from *.test.ts): build tiny .docx files from a
 * body XML string and read parts back. Pure TypeScript like the engine.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { DocxError } from '../../src/docx/errors';
import { readZip } from '../../src/docx/zip/read';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** Parts minimalDocx relates to the main document when given, by file name: content type and relationship type. */
const RELATED_PARTS: Record<string, [string, string]> = {
  'comments.xml': ['application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml', 'comments'],
  'numbering.xml': ['application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml', 'numbering'],
  'styles.xml': ['application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml', 'styles'],
  'theme1.xml': ['application/vnd.openxmlformats-officedocument.theme+xml', 'theme'],
};
const relatedPart = (name: string) => RELATED_PARTS[name.slice(name.lastIndexOf('/') + 1)];

export function minimalDocx(bodyXml: string, extraParts: Record<string, string> = {}): Uint8Array {
  const related = Object.keys(extraParts).filter((n) => relatedPart(n));
  const overrides = related.map((n) => `<Override PartName="/${n}" ContentType="${relatedPart(n)![0]}"/>`).join('');
  const rels = related
    .map((n, i) => `<Relationship Id="rC${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${relatedPart(n)![1]}" Target="${n.replace('word/', '')}"/>`)
    .join('');
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>${overrides}</Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>${bodyXml}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:body></w:document>`,
    ),
  };
  for (const [name, xml] of Object.entries(extraParts)) files[name] = strToU8(xml);
  return zipSync(files);
}

export function commentsPart(comments: Record<string, string>): string {
  const body = Object.entries(comments)
    .map(([id, text]) => `<w:comment w:id="${id}" w:author="Reviewer"><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:comment>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><w:comments xmlns:w="${W}">${body}</w:comments>`;
}

export function readPart(docx: Uint8Array, name = 'word/document.xml'): string {
  const files = unzipSync(docx, { filter: (f) => f.name === name });
  const data = files[name];
  if (!data) throw new Error(`no part ${name}`);
  return strFromU8(data);
}

/** The body XML between <w:body> and the final <w:sectPr>. */
export function bodyOf(docx: Uint8Array): string {
  const xml = readPart(docx);
  const start = xml.indexOf('<w:body>') + '<w:body>'.length;
  const end = xml.lastIndexOf('<w:sectPr');
  return xml.slice(start, end);
}

export const r = (text: string, rPr = '') => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
export const dr = (text: string) => `<w:r><w:delText xml:space="preserve">${text}</w:delText></w:r>`;
export const ins = (id: number, inner: string, author = 'Ann') => `<w:ins w:id="${id}" w:author="${author}" w:date="2025-01-01T00:00:00Z">${inner}</w:ins>`;
export const del = (id: number, inner: string, author = 'Ann') => `<w:del w:id="${id}" w:author="${author}" w:date="2025-01-01T00:00:00Z">${inner}</w:del>`;

/** The code of the DocxError `f` throws, or null when it throws nothing. */
export function codeOf(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    if (e instanceof DocxError) return e.code;
    throw e;
  }
}

/** Declares `size` as the uncompressed size of every larger entry (central directory and local headers). */
export function lieAboutSizes(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const v = new DataView(out.buffer);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = v.getUint32(i, true);
    if (sig === 0x02014b50 && v.getUint32(i + 24, true) > size) v.setUint32(i + 24, size, true);
    else if (sig === 0x04034b50 && v.getUint32(i + 22, true) > size) v.setUint32(i + 22, size, true);
  }
  return out;
}

/** Every part of a .docx, inflated, by name: for comparing packages whose compressed bytes may differ. */
export function partsOf(docx: Uint8Array): Map<string, string> {
  const zip = readZip(docx);
  return new Map(zip.entries.map((e) => [e.name, new TextDecoder().decode(zip.read(e.name)!)]));
}

/**
 * `minimalDocx` as other writers package it (issue 11.4): the main part typed only by
 * `Default Extension="xml"` (Open XML SDK, System.IO.Packaging), the officeDocument relationship
 * with an absolute target, part names in other letter case in [Content_Types].xml, and a UTF-8
 * byte-order mark before the chosen parts.
 */
export function otherWriterDocx(
  bodyXml: string,
  opts: { defaultTyped?: boolean; absoluteTarget?: boolean; overrideCase?: boolean; bom?: readonly string[] } = {},
): Uint8Array {
  const files = unzipSync(minimalDocx(bodyXml));
  const main = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
  let types = strFromU8(files['[Content_Types].xml']!);
  if (opts.defaultTyped) {
    types = types
      .replace(/<Default Extension="xml"[^>]*\/>/, `<Default Extension="XML" ContentType="${main}"/>`)
      .replace(/<Override PartName="\/word\/document.xml"[^>]*\/>/, '');
  }
  if (opts.overrideCase) types = types.replace('PartName="/word/document.xml"', 'PartName="/Word/Document.XML"');
  files['[Content_Types].xml'] = strToU8(types);
  if (opts.absoluteTarget) files['_rels/.rels'] = strToU8(strFromU8(files['_rels/.rels']!).replace('Target="word/document.xml"', 'Target="/word/document.xml"'));
  for (const name of opts.bom ?? []) files[name] = new Uint8Array([0xef, 0xbb, 0xbf, ...files[name]!]);
  return zipSync(files);
}
