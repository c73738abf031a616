import { DocxError } from '../errors';
import { XmlSyntaxError, parseXml } from '../xml/parse';
import { declareUsedPrefixes, namespaceBindings, type NamespaceBinding } from '../xml/namespaces';
import { serializeXmlUtf8 } from '../xml/serialize';
import type { XmlOverlay } from '../xml/overlay';
import type { BlockMemo } from '../xml/serialize';
import { XmlDocument, XmlElement } from '../xml/tree';
import type { DeflateLevel, ZipCodec } from '../zip/codec';
import type { ReadLimits } from '../zip/limits';
import { readZip, type ZipArchive } from '../zip/read';
import { writeZip, writeZipAsync, type OutEntry } from '../zip/write';
import { relativeTarget, relsPathOf, resolveTarget } from './paths';
import { checkPartNames } from './part-names';
import { checkWorkLimits, type WorkLimits } from './work-limits';
import { timed, type PhaseTiming } from './phase-timing';

/**
 * A WordprocessingML package: validates that the zip is a .docx, finds the story parts that can
 * hold tracked changes, parses them on demand and writes back only the parts that changed.
 */

/** How a package is read and written: the zip limits, and the codec (portable by default). */
export interface OpenOptions {
  limits?: Partial<ReadLimits>;
  codec?: ZipCodec;
  /** Caps on the story parts' size and paragraphs, checked before parsing (the service sets them when it ingests an upload). */
  work?: WorkLimits;
  /** Told how long each phase took (unzip, decode, parse, serialise, zip; OpenDocx adds scan and decide). */
  timing?: PhaseTiming;
}

/** Where a part's revisions sit in the document; also the listing order of parts. */
export type PartRole = 'document' | 'header' | 'footer' | 'footnotes' | 'endnotes' | 'comments' | 'styles' | 'numbering';
const ROLE_ORDER: PartRole[] = ['document', 'header', 'footer', 'footnotes', 'endnotes', 'comments', 'styles', 'numbering'];

export interface StoryPart {
  name: string;
  role: PartRole;
}

const MAIN_TYPES = [
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml',
  'application/vnd.ms-word.document.macroEnabled.main+xml',
  'application/vnd.ms-word.template.macroEnabledTemplate.main+xml',
];
const W_NAMESPACES = ['http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'http://purl.oclc.org/ooxml/wordprocessingml/main'];

/**
 * The package as last written: its bytes, its entries, and how many mutations each parsed part
 * had seen then. A part whose count has not moved since is copied from here, compressed bytes
 * and all, so a document kept open across batches writes exactly what a reopened one writes.
 */
interface Written {
  bytes: Uint8Array;
  zip: ZipArchive;
  mutations: Map<string, number>;
}

export interface WriteOptions {
  forceRewrite?: boolean;
  level?: DeflateLevel;
  overlay?: XmlOverlay;
  /** With an overlay: blocks written through it before, copied where they still hold (render/variant-memo.ts). */
  memo?: BlockMemo;
}

interface WritePlan {
  entries: OutEntry[];
  /** Each parsed part's mutation count when serialised; null for an overlay's display copy. */
  mutations: Map<string, number> | null;
}

/** Our own output is trusted: it is re-read only for its central directory. */
const OWN_OUTPUT: Required<ReadLimits> = { maxCompressedBytes: Infinity, maxUncompressedBytes: Infinity, maxEntries: Infinity, maxCompressionRatio: Infinity };

export class DocxPackage {
  private parsed = new Map<string, XmlDocument>();
  /** Parts added since the last write (a comparison copies media from the older version). */
  private added = new Map<string, Uint8Array>();
  private written: Written;
  /** Parts created since opening (e.g. word/comments.xml for a first comment), in creation order. */
  private readonly created: string[] = [];
  /** Namespaces of packages whose markup was copied in (see `borrowNamespaces`). */
  private readonly borrowed = new Map<string, NamespaceBinding>();

  private constructor(
    original: Uint8Array,
    private readonly zip: ZipArchive,
    readonly mainPart: string,
    readonly storyParts: StoryPart[],
    readonly timing?: PhaseTiming,
  ) {
    this.written = { bytes: original, zip, mutations: new Map() };
  }

  static open(bytes: Uint8Array, opts: OpenOptions = {}): DocxPackage {
    const zip = timed(opts.timing, 'unzip', () => readZip(bytes, opts.limits, opts.codec));
    const { mainPart, parts } = wordPackage(zip);
    if (opts.work) checkWorkLimits(zip, parts.map((p) => p.name), opts.work);
    const pkg = new DocxPackage(bytes, zip, mainPart, parts, opts.timing);
    for (const p of parts) pkg.xml(p.name); // parse (and so validate) every story part up front
    return pkg;
  }

  /**
   * A second package over the same bytes whose parsed parts are linked copies of this one's
   * (XmlElement.copyLinked: clean elements keep reading from the same source text), so deciding
   * one leaves the other as it is, without unzipping and parsing the parts again. Not of a
   * package with parts added or created since it was opened.
   */
  copy(): DocxPackage {
    if (this.added.size > 0 || this.created.length > 0) throw new Error('a package with parts added or created cannot be copied');
    const copy = new DocxPackage(this.written.bytes, this.zip, this.mainPart, this.storyParts, this.timing);
    for (const [name, doc] of this.parsed) {
      const root = doc.root.copyLinked(() => undefined);
      const linked = new XmlDocument(doc.src, doc.nodes.map((n) => (n === doc.root ? root : n)), root);
      linked.mutations = doc.mutations;
      copy.parsed.set(name, linked);
    }
    copy.written.mutations = new Map(this.written.mutations);
    return copy;
  }

  /** The parsed part; story parts must bind the prefix `w` to WordprocessingML. */
  xml(name: string): XmlDocument {
    let doc = this.parsed.get(name);
    if (!doc) {
      const added = this.added.get(name);
      doc = added ? parseXml(new TextDecoder().decode(added)) : parseOrThrow(this.zip, name, this.timing);
      const w = doc.root.attr('xmlns:w');
      if (this.storyParts.some((p) => p.name === name) && (!w || !W_NAMESPACES.includes(w))) {
        throw new DocxError('invalid_docx', `Part ${name} does not use the usual "w:" prefix for WordprocessingML; it cannot be processed.`);
      }
      this.parsed.set(name, doc);
      this.written.mutations.set(name, doc.mutations);
    }
    return doc;
  }

  /** Whether the package holds the part (read, created, written or added). */
  has(name: string): boolean {
    return this.parsed.has(name) || this.added.has(name) || this.zip.has(name) || this.written.zip.has(name);
  }

  /** The first part the main part relates to with this relationship type, if any. */
  relatedPart(relType: string): string | null {
    const rels = relsPathOf(this.mainPart);
    if (!this.has(rels)) return null;
    for (const r of this.xml(rels).root.all('Relationship')) {
      if (r.attr('Type') === relType && r.attr('TargetMode') !== 'External') {
        const target = resolveTarget(this.mainPart, r.attr('Target') ?? '');
        if (this.has(target)) return target;
      }
    }
    return null;
  }

  /**
   * Creates an XML part related to the main part: the part itself, its content type override and
   * the main part's relationship (the .rels part too, when the package had none). A story part
   * (`role`) joins the listing, so its revisions are found like any other's.
   */
  createPart(name: string, xml: string, contentType: string, relType: string, role?: PartRole): XmlDocument {
    const doc = parseXml(xml);
    this.parsed.set(name, doc);
    this.created.push(name);
    this.written.mutations.set(name, -1);
    const types = this.xml('[Content_Types].xml').root;
    if (!types.all('Override').some((o) => o.attr('PartName') === `/${name}`)) {
      types.append(XmlElement.create('Override', { PartName: `/${name}`, ContentType: contentType }));
    }
    const relsName = relsPathOf(this.mainPart);
    if (!this.has(relsName)) {
      this.parsed.set(relsName, parseXml('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>'));
      this.created.push(relsName);
      this.written.mutations.set(relsName, -1);
    }
    const rels = this.xml(relsName).root;
    const taken = new Set(rels.all('Relationship').map((r) => r.attr('Id')));
    let n = rels.all('Relationship').length + 1;
    while (taken.has(`rId${n}`)) n++;
    rels.append(XmlElement.create('Relationship', { Id: `rId${n}`, Type: relType, Target: relativeTarget(this.mainPart, name) }));
    if (role) {
      const at = this.storyParts.findIndex((p) => ROLE_ORDER.indexOf(p.role) > ROLE_ORDER.indexOf(role));
      this.storyParts.splice(at < 0 ? this.storyParts.length : at, 0, { name, role });
    }
    return doc;
  }

  /** The raw bytes of a part as last written or added (null when there is none). */
  read(name: string): Uint8Array | null {
    return this.added.get(name) ?? this.written.zip.read(name);
  }

  /** Every part name, added ones last. */
  partNames(): string[] {
    return [...this.written.zip.entries.map((e) => e.name), ...this.added.keys()];
  }

  /** Adds a new part, written with the next write; an existing name is refused. */
  addPart(name: string, data: Uint8Array): void {
    if (this.has(name)) throw new Error(`part ${name} already exists`);
    this.added.set(name, data);
  }

  /**
   * Markup copied from `from` (a comparison copies older's content into newer) may use prefixes
   * this package does not declare: they are declared, as `from` declared them, on the root of each
   * part they land in when it is written (xml/namespaces.ts). Read now, from the parts `from` has
   * parsed, so `from` itself need not be kept.
   */
  borrowNamespaces(from: DocxPackage): void {
    for (const doc of from.parsed.values()) {
      for (const [prefix, binding] of namespaceBindings(doc)) if (!this.borrowed.has(prefix)) this.borrowed.set(prefix, binding);
    }
  }

  /** How a prefix is bound for markup this package writes: as one of its parts declares it, else as a lender did. */
  private namespaceLookup(): (prefix: string) => NamespaceBinding | null {
    let own: Map<string, NamespaceBinding> | null = null;
    return (prefix) => {
      if (!own) {
        own = new Map();
        for (const doc of this.parsed.values()) for (const [p, b] of namespaceBindings(doc)) if (!own.has(p)) own.set(p, b);
      }
      return own.get(prefix) ?? this.borrowed.get(prefix) ?? null;
    };
  }

  /** Parsed story parts in listing order. */
  stories(): { part: StoryPart; doc: XmlDocument }[] {
    return this.storyParts.map((part) => ({ part, doc: this.xml(part.name) }));
  }

  /** Mutations of every parsed part so far: tells a caller whether an operation changed anything. */
  mutationCount(): number {
    let n = 0;
    for (const doc of this.parsed.values()) n += doc.mutations;
    return n;
  }

  /** Characters of XML parsed so far: what the parsed trees' memory grows with. */
  get parsedChars(): number {
    let n = 0;
    for (const doc of this.parsed.values()) n += doc.src.length;
    return n;
  }

  private changedSinceWritten(name: string, doc: XmlDocument): boolean {
    return doc.mutations !== this.written.mutations.get(name);
  }

  /**
   * The package bytes: the last written bytes when nothing changed since, else a new zip in
   * which only the parts that changed since are serialised and deflated. `level` is the deflate
   * level of those parts (copied parts keep theirs). An `overlay` is written over the parts it
   * touches, for a display copy that does not become the package's written state.
   */
  toBytes(opts: WriteOptions = {}): Uint8Array {
    const plan = this.planWrite(opts);
    if (!plan) return this.written.bytes;
    return timed(this.timing, 'zip', () => this.wrote(writeZip(plan.entries, opts.level ?? 6, this.zip.codec), plan));
  }

  /**
   * `toBytes` with the deflating off the calling thread where the codec can: the parts are
   * serialised now (the package may change as soon as this returns), then compressed meanwhile.
   */
  async toBytesAsync(opts: WriteOptions = {}): Promise<Uint8Array> {
    const plan = this.planWrite(opts);
    if (!plan) return this.written.bytes;
    return this.wrote(await writeZipAsync(plan.entries, opts.level ?? 6, this.zip.codec), plan);
  }

  /** The entries to write, serialised now; null when the last written bytes still hold. */
  private planWrite(opts: WriteOptions): WritePlan | null {
    return timed(this.timing, 'serialise', () => this.serialiseEntries(opts));
  }

  private serialiseEntries(opts: WriteOptions): WritePlan | null {
    const { overlay, memo, forceRewrite = false } = opts;
    const rewrite = (name: string, doc: XmlDocument | undefined): doc is XmlDocument =>
      doc !== undefined && (forceRewrite || this.changedSinceWritten(name, doc) || overlay?.touches(doc) === true);
    if (this.added.size === 0 && ![...this.parsed].some(([name, doc]) => rewrite(name, doc))) return null;
    const lookup = this.namespaceLookup();
    for (const [name, doc] of this.parsed) if (forceRewrite || this.changedSinceWritten(name, doc)) declareUsedPrefixes(doc, lookup);
    const entries: OutEntry[] = this.written.zip.entries.map((entry) => {
      const doc = this.parsed.get(entry.name);
      if (rewrite(entry.name, doc)) return { kind: 'data', name: entry.name, data: serializeXmlUtf8(doc, overlay, memo), like: entry };
      return { kind: 'copy', entry };
    });
    for (const name of this.created) {
      if (this.written.zip.has(name)) continue;
      entries.push({ kind: 'data', name, data: serializeXmlUtf8(this.parsed.get(name)!, overlay) });
    }
    for (const [name, data] of this.added) {
      const doc = this.parsed.get(name);
      entries.push({ kind: 'data', name, data: doc ? serializeXmlUtf8(doc, overlay) : data });
    }
    // A display copy (overlay) does not become the written state; the real document does.
    const mutations = overlay ? null : new Map([...this.parsed].map(([name, doc]) => [name, doc.mutations]));
    return { entries, mutations };
  }

  private wrote(bytes: Uint8Array, plan: WritePlan): Uint8Array {
    if (plan.mutations) {
      this.written = { bytes, zip: readZip(bytes, OWN_OUTPUT, this.zip.codec), mutations: plan.mutations };
      this.added.clear();
    }
    return bytes;
  }
}

/** A Word package's main part and story parts (listing order), checked to be one; throws not_docx or invalid_docx otherwise. */
function wordPackage(zip: ZipArchive): { mainPart: string; parts: StoryPart[] } {
  checkPartNames(zip.entries);
  if (!zip.has('[Content_Types].xml') || !zip.has('_rels/.rels')) {
    throw new DocxError('not_docx', 'The file is a zip archive but not a Word document (no Office package structure).');
  }
  const pkgRels = relationships(zip, '_rels/.rels', '');
  const officeDoc = pkgRels.find((r) => r.type.endsWith('/officeDocument'));
  if (!officeDoc) throw new DocxError('not_docx', 'The package has no main document, so it is not a Word document.');
  const mainPart = officeDoc.target;
  const mainType = contentTypeOf(parseOrThrow(zip, '[Content_Types].xml'), mainPart);
  if (!mainType || !MAIN_TYPES.includes(mainType)) {
    throw new DocxError('not_docx', 'The package is an Office file but not a Word document.');
  }
  if (!zip.has(mainPart)) throw new DocxError('invalid_docx', `The Word document is missing its main part (${mainPart}).`);

  const parts: StoryPart[] = [{ name: mainPart, role: 'document' }];
  const byRole = new Map<PartRole, string[]>();
  for (const r of relationships(zip, relsPathOf(mainPart), mainPart)) {
    const role = r.type.slice(r.type.lastIndexOf('/') + 1) as PartRole;
    if (!ROLE_ORDER.includes(role) || role === 'document' || !zip.has(r.target)) continue;
    const list = byRole.get(role) ?? [];
    if (!list.includes(r.target)) list.push(r.target);
    byRole.set(role, list);
  }
  for (const role of ROLE_ORDER) {
    const list = byRole.get(role);
    if (list) for (const name of list.sort(naturalCompare)) parts.push({ name, role });
  }
  return { mainPart, parts };
}

/**
 * Refuses (too_large, naming the limit) bytes this engine wrote whose story parts exceed the work
 * caps an upload is held to: what a change makes of a draft must open again as an upload would.
 */
export function checkWrittenWork(bytes: Uint8Array, work: WorkLimits, codec?: ZipCodec): void {
  const zip = readZip(bytes, OWN_OUTPUT, codec);
  checkWorkLimits(zip, wordPackage(zip).parts.map((p) => p.name), work);
}

interface Relationship {
  type: string;
  target: string;
}

function relationships(zip: ZipArchive, relsPath: string, source: string): Relationship[] {
  if (!zip.has(relsPath)) return [];
  const doc = parseOrThrow(zip, relsPath);
  const out: Relationship[] = [];
  for (const r of doc.root.all('Relationship')) {
    const type = r.attr('Type');
    const target = r.attr('Target');
    if (!type || !target || r.attr('TargetMode') === 'External') continue;
    out.push({ type, target: resolveTarget(source, target) });
  }
  return out;
}

/**
 * A part's content type as OPC says (Part 2, 10.1.2.4): the Override whose PartName names the part,
 * else the Default for its extension; both compared case-insensitively (ASCII), as part names are.
 * The Open XML SDK and System.IO.Packaging type the main part by `Default Extension="xml"`.
 */
export function contentTypeOf(types: XmlDocument, part: string): string | null {
  const name = `/${part}`.toLowerCase();
  for (const o of types.root.all('Override')) {
    if (o.attr('PartName')?.toLowerCase() === name) return o.attr('ContentType');
  }
  const slash = part.lastIndexOf('/');
  const dot = part.lastIndexOf('.');
  if (dot <= slash) return null;
  const extension = part.slice(dot + 1).toLowerCase();
  for (const d of types.root.all('Default')) {
    if (d.attr('Extension')?.toLowerCase() === extension) return d.attr('ContentType');
  }
  return null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The codec's decoding where it has one (Node's is several times faster on a part with a few non-ASCII characters), else the TextDecoder's. */
function decodeUtf8(bytes: Uint8Array, codec: ZipCodec): string | null {
  if (codec.decodeUtf8) return codec.decodeUtf8(bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function parseOrThrow(zip: ZipArchive, name: string, timing?: PhaseTiming): XmlDocument {
  const bytes = timed(timing, 'unzip', () => zip.read(name));
  if (!bytes) throw new DocxError('invalid_docx', `The Word document is missing part ${name}.`);
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new DocxError('invalid_docx', `Part ${name} is encoded as UTF-16, which this service does not process.`);
  }
  // A UTF-8 byte-order mark is allowed before the XML declaration (Word reads such parts); it is
  // not kept: a part the engine rewrites is written without one.
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const text = timed(timing, 'decode', () => decodeUtf8(body, zip.codec));
  if (text === null) throw new DocxError('invalid_docx', `Part ${name} is not valid UTF-8 text.`);
  try {
    return timed(timing, 'parse', () => parseXml(text));
  } catch (e) {
    if (e instanceof XmlSyntaxError) throw new DocxError('invalid_docx', `Part ${name} is not well-formed XML (${e.message}).`);
    throw e;
  }
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
