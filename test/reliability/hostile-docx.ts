import fc from 'fast-check';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { REVISION_KINDS } from '../../src/contract/revision';
import { buildBenchmarkContract, buildDemoContract, buildKindSample } from '../../src/docx/fixture';

/**
 * Hostile .docx files for the fuzz run (issue 7 item 5): well-formed seeds from the
 * fixture builders, hand-made attacks on the zip, the XML and the package structure,
 * and fast-check arbitraries that mutate a seed at the byte, zip-entry and XML level.
 */

export interface HostileCase {
  name: string;
  bytes: Uint8Array;
  /** The Content-Type the multipart part declares (a lie, for some). */
  type?: string;
}

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const DOC = 'word/document.xml';
const TYPES = '[Content_Types].xml';

/** The seeds: real documents from the fixture builders. */
export function seedDocuments(): HostileCase[] {
  return [
    { name: 'demo contract', bytes: buildDemoContract() },
    ...REVISION_KINDS.map((kind) => ({ name: `kind sample ${kind}`, bytes: buildKindSample(kind) })),
    // An explicit revision count: the builder's default of 3000 cannot fit in 5 pages.
    { name: 'benchmark contract, 5 pages', bytes: buildBenchmarkContract({ pages: 5, revisions: 300 }) },
  ];
}

const entriesOf = (bytes: Uint8Array): Record<string, Uint8Array> => unzipSync(bytes);
const rezip = (entries: Zippable): Uint8Array => zipSync(entries, { level: 6 });

/** A copy of the one-revision sample with its main part (and optionally more) replaced. */
export function withParts(parts: Record<string, string | Uint8Array | null>, base = buildKindSample('insert')): Uint8Array {
  const entries: Zippable = { ...entriesOf(base) };
  for (const [name, value] of Object.entries(parts)) {
    if (value === null) delete entries[name];
    else entries[name] = typeof value === 'string' ? strToU8(value) : value;
  }
  return rezip(entries);
}

const documentXml = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W_NS}"><w:body>${body}<w:sectPr/></w:body></w:document>`;
const ins = (id: number, text: string, author = 'A') =>
  `<w:ins w:id="${id}" w:author="${author}" w:date="2025-01-01T00:00:00Z"><w:r><w:t>${text}</w:t></w:r></w:ins>`;
const del = (id: number, text: string) =>
  `<w:del w:id="${id}" w:author="B" w:date="2025-01-01T00:00:00Z"><w:r><w:delText>${text}</w:delText></w:r></w:del>`;

/** A document with `count` tracked revisions (insertions and deletions alternating). */
export function manyRevisions(count: number): Uint8Array {
  const paragraphs: string[] = [];
  for (let i = 0; i < count; i += 2) paragraphs.push(`<w:p><w:r><w:t xml:space="preserve">Clause ${i}: </w:t></w:r>${ins(i + 1, `new ${i}`)}${i + 1 < count ? del(i + 2, `old ${i}`) : ''}</w:p>`);
  return withParts({ [DOC]: documentXml(paragraphs.join('')) });
}

/**
 * A small upload that is a lot of work (issue 21 item 3): a main part of about `xmlBytes` of
 * ordinary paragraphs (no revisions), one repeated, so it deflates about 250:1, under every
 * zip-bomb cap: 30 MB of XML gives a .docx of about 123 KB holding about 148,000 paragraphs.
 */
export function bulkParagraphs(xmlBytes: number): Uint8Array {
  const paragraph = '<w:p><w:pPr><w:pStyle w:val="BodyText"/></w:pPr><w:r><w:t xml:space="preserve">'
    + 'The Supplier shall deliver the Goods to the Premises on the Delivery Date and in accordance with the Specification.</w:t></w:r></w:p>';
  return withParts({ [DOC]: documentXml(paragraph.repeat(Math.ceil(xmlBytes / paragraph.length))) });
}

/** `depth` nested elements of one kind inside a paragraph or the body. */
function nested(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** The hand-made attacks, each one a file a careless reader would choke on. */
export function handMadeCases(): HostileCase[] {
  const sample = buildKindSample('insert');
  const demo = buildDemoContract();
  const mb = 1024 * 1024;
  const cases: HostileCase[] = [
    // Not a zip at all, or barely one.
    { name: 'empty file', bytes: new Uint8Array(0) },
    { name: 'random bytes', bytes: Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) & 255) },
    { name: 'a PDF', bytes: strToU8('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), type: 'application/pdf' },
    { name: 'zip magic only', bytes: Uint8Array.of(0x50, 0x4b, 0x03, 0x04) },
    { name: 'empty zip', bytes: rezip({}) },
    ...[0.1, 0.5, 0.9, 0.99].map((f) => ({ name: `demo truncated to ${f * 100}%`, bytes: demo.slice(0, Math.floor(demo.byteLength * f)) })),
    { name: 'demo with the central directory cut off', bytes: demo.slice(0, demo.byteLength - 22) },
    ...[11, 101, 1009].map((step) => ({ name: `demo with every ${step}th byte flipped`, bytes: demo.map((b, i) => (i % step === 7 ? b ^ 0x5a : b)) })),
    // Zip structure.
    { name: 'zip bomb (64 MB of zeros in one entry)', bytes: withParts({ 'word/media/bomb.bin': new Uint8Array(64 * mb) }) },
    { name: '5,000 entries', bytes: rezip({ ...entriesOf(sample), ...Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`word/media/e${i}.bin`, Uint8Array.of(i & 255)])) }) },
    { name: 'entry name with ../', bytes: withParts({ '../../etc/evil.xml': '<x/>' }) },
    // Package structure and content types.
    { name: 'no [Content_Types].xml', bytes: withParts({ [TYPES]: null }) },
    { name: '[Content_Types].xml is garbage', bytes: withParts({ [TYPES]: 'not xml at all <<<' }) },
    { name: 'main part declared as plain XML', bytes: withParts({ [TYPES]: strFromU8(entriesOf(sample)[TYPES]!).replace('wordprocessingml.document.main+xml', 'xml') }) },
    { name: 'main part declared as a macro-enabled document', bytes: withParts({ [TYPES]: strFromU8(entriesOf(sample)[TYPES]!).replace('wordprocessingml.document.main+xml', 'ms-word.document.macroEnabled.main+xml') }) },
    { name: 'no word/document.xml', bytes: withParts({ [DOC]: null }) },
    { name: 'no _rels/.rels', bytes: withParts({ '_rels/.rels': null }) },
    { name: 'package rels point at a missing part', bytes: withParts({ '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/nothing.xml"/></Relationships>` }) },
    { name: 'a good .docx declared as application/pdf', bytes: sample, type: 'application/pdf' },
    { name: 'a good .docx declared as text/plain', bytes: sample, type: 'text/plain' },
    // Bad XML.
    { name: 'document.xml not closed', bytes: withParts({ [DOC]: documentXml('<w:p><w:r><w:t>open').replace('</w:body></w:document>', '') }) },
    { name: 'document.xml mismatched tags', bytes: withParts({ [DOC]: documentXml('<w:p><w:r><w:t>x</w:r></w:t></w:p>') }) },
    { name: 'document.xml undefined entity', bytes: withParts({ [DOC]: documentXml('<w:p><w:r><w:t>&evil;</w:t></w:r></w:p>') }) },
    { name: 'document.xml billion laughs', bytes: withParts({ [DOC]: `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">]>${documentXml('<w:p><w:r><w:t>&g;</w:t></w:r></w:p>').replace(/^<\?xml[^>]*\?>/, '')}` }) },
    { name: 'document.xml external entity', bytes: withParts({ [DOC]: `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>${documentXml('<w:p><w:r><w:t>&x;</w:t></w:r></w:p>').replace(/^<\?xml[^>]*\?>/, '')}` }) },
    { name: 'document.xml invalid UTF-8', bytes: withParts({ [DOC]: Uint8Array.from([...strToU8(documentXml('<w:p><w:r><w:t>X</w:t></w:r></w:p>'))].map((b) => (b === 0x58 ? 0xff : b))) }) },
    { name: 'document.xml with NUL and control characters', bytes: withParts({ [DOC]: documentXml('<w:p><w:r><w:t>a\u0000b\u0001c\u001f</w:t></w:r></w:p>') }) },
    { name: 'document.xml is empty', bytes: withParts({ [DOC]: '' }) },
    { name: 'document.xml has no namespace', bytes: withParts({ [DOC]: '<document><body><p/></body></document>' }) },
    { name: 'revision with an unbound prefix', bytes: withParts({ [DOC]: documentXml('<w:p><q:ins w:id="1"><w:r><w:t>x</w:t></w:r></q:ins></w:p>') }) },
    // Huge values.
    { name: '1 MB author attribute', bytes: withParts({ [DOC]: documentXml(`<w:p>${ins(1, 'x', 'A'.repeat(mb))}</w:p>`) }) },
    { name: '1 MB style value', bytes: withParts({ [DOC]: documentXml(`<w:p><w:pPr><w:pStyle w:val="${'S'.repeat(mb)}"/></w:pPr>${ins(1, 'x')}</w:p>`) }) },
    { name: '1 MB of entity references in an attribute', bytes: withParts({ [DOC]: documentXml(`<w:p>${ins(1, 'x', '&amp;'.repeat(mb / 5))}</w:p>`) }) },
    { name: '1 MB w:id', bytes: withParts({ [DOC]: documentXml(`<w:p>${ins(1, 'x').replace('w:id="1"', `w:id="${'9'.repeat(mb)}"`)}</w:p>`) }) },
    { name: '4 MB text run in an insertion', bytes: withParts({ [DOC]: documentXml(`<w:p>${ins(1, 'lorem '.repeat((4 * mb) / 6))}</w:p>`) }) },
    { name: 'duplicate w:ids', bytes: withParts({ [DOC]: documentXml(`<w:p>${ins(5, 'a')}${ins(5, 'b')}${del(5, 'c')}</w:p>`) }) },
    { name: 'negative and non-numeric w:ids', bytes: withParts({ [DOC]: documentXml(`<w:p>${ins(-1, 'a')}${ins(1, 'b').replace('w:id="1"', 'w:id="abc"')}</w:p>`) }) },
    // Deep nesting (100,000 levels) in the places a recursive walker would follow.
    { name: '100k nested smart tags in a paragraph', bytes: withParts({ [DOC]: documentXml(`<w:p>${nested(100_000, '<w:smartTag w:element="x">', '</w:smartTag>', ins(1, 'deep'))}</w:p>`) }) },
    { name: '100k nested content controls', bytes: withParts({ [DOC]: documentXml(nested(100_000, '<w:sdt><w:sdtContent>', '</w:sdtContent></w:sdt>', `<w:p>${ins(1, 'deep')}</w:p>`)) }) },
    { name: '100k nested insertions', bytes: withParts({ [DOC]: documentXml(`<w:p>${nested(100_000, '<w:ins w:author="A">', '</w:ins>', '<w:r><w:t>deep</w:t></w:r>')}</w:p>`) }) },
    { name: '100k nested unknown elements', bytes: withParts({ [DOC]: documentXml(`<w:p>${nested(100_000, '<x:a xmlns:x="urn:x">', '</x:a>', ins(1, 'deep'))}</w:p>`) }) },
    { name: '100k nested tables', bytes: withParts({ [DOC]: documentXml(nested(100_000, '<w:tbl><w:tr><w:tc>', '</w:tc></w:tr></w:tbl>', `<w:p>${ins(1, 'deep')}</w:p>`)) }) },
    // Just under the parser's depth limit (MAX_XML_DEPTH): accepted, and every walker must cope.
    { name: 'content controls nested 320 deep', bytes: withParts({ [DOC]: documentXml(nested(320, '<w:sdt><w:sdtContent>', '</w:sdtContent></w:sdt>', `<w:p>${ins(1, 'deep')}</w:p>`)) }) },
    { name: 'tables nested 300 deep', bytes: withParts({ [DOC]: documentXml(nested(300, '<w:tbl><w:tr><w:tc>', '</w:tc></w:tr></w:tbl>', `<w:p>${ins(1, 'deep')}</w:p>`)) }) },
    // Many revisions.
    { name: '10,000 revisions', bytes: manyRevisions(10_000) },
  ];
  return cases;
}

/** Byte-level mutation of a .docx: flips, truncation, splices of its own bytes. */
export const byteMutation = (seed: Uint8Array): fc.Arbitrary<{ name: string; bytes: Uint8Array }> => fc.oneof(
  fc.array(fc.tuple(fc.nat(seed.byteLength - 1), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 20 }).map((flips) => {
    const bytes = seed.slice();
    for (const [at, mask] of flips) bytes[at]! ^= mask;
    return { name: `${flips.length} byte flips`, bytes };
  }),
  fc.nat(seed.byteLength - 1).map((length) => ({ name: `truncated to ${length} bytes`, bytes: seed.slice(0, length) })),
  fc.tuple(fc.nat(seed.byteLength - 1), fc.nat(seed.byteLength - 1), fc.integer({ min: 1, max: 4096 })).map(([from, to, length]) => {
    const bytes = seed.slice();
    bytes.set(seed.subarray(from, from + Math.min(length, seed.byteLength - Math.max(from, to))), to);
    return { name: `spliced ${length} bytes ${from}->${to}`, bytes };
  }),
);

/** XML-level mutation of one part of a .docx, re-zipped so the reader gets past the zip. */
export const xmlMutation = (seed: Uint8Array): fc.Arbitrary<{ name: string; bytes: Uint8Array }> => {
  const entries = entriesOf(seed);
  const xmlParts = Object.keys(entries).filter((name) => name.endsWith('.xml') || name.endsWith('.rels'));
  const hostileText = fc.oneof(
    fc.constantFrom('<', '>', '&', '"', "'", '</w:p>', '<w:p>', '<w:ins w:id="1">', '</w:ins>', ']]>', '<![CDATA[', '<!--', '&#0;', '&#xFFFF;', '\u0000', '\uFFFE', '<!DOCTYPE x [<!ENTITY a "b">]>', 'w:id="1"', 'xmlns:w="urn:other"'),
    fc.string({ maxLength: 40 }),
  );
  const edit = fc.oneof(
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), hostileText).map(([at, text]) => ({ what: `insert ${JSON.stringify(text).slice(0, 30)}`, apply: (xml: string) => { const i = Math.floor(at * xml.length); return xml.slice(0, i) + text + xml.slice(i); } })),
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 200 })).map(([at, length]) => ({ what: `delete ${length} chars`, apply: (xml: string) => { const i = Math.floor(at * xml.length); return xml.slice(0, i) + xml.slice(i + length); } })),
    fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ what: 'truncate', apply: (xml: string) => xml.slice(0, Math.floor(at * xml.length)) })),
    fc.tuple(fc.constantFrom('w:id', 'w:author', 'w:val', 'w:date', 'Target', 'PartName', 'ContentType'), hostileText).map(([attribute, value]) => ({
      what: `every ${attribute} = ${JSON.stringify(value).slice(0, 30)}`,
      apply: (xml: string) => xml.replaceAll(new RegExp(`${attribute}="[^"]*"`, 'g'), `${attribute}="${value}"`),
    })),
    fc.constantFrom('w:ins', 'w:del', 'w:p', 'w:r', 'w:tbl', 'w:rPrChange', 'w:pPrChange', 'w:sdt', 'w:moveFrom', 'w:moveTo').map((tag) => ({
      what: `unwrap every <${tag}> start tag`,
      apply: (xml: string) => xml.replaceAll(new RegExp(`<${tag}(\\s[^>]*)?>`, 'g'), ''),
    })),
  );
  return fc.tuple(fc.constantFrom(...xmlParts), fc.array(edit, { minLength: 1, maxLength: 3 })).map(([part, edits]) => {
    let xml = strFromU8(entries[part]!);
    for (const e of edits) xml = e.apply(xml);
    return { name: `${part}: ${edits.map((e) => e.what).join('; ')}`, bytes: rezip({ ...entries, [part]: strToU8(xml) }) };
  });
};
