import type { DocxPackage } from '../package/package';
import { relsPathOf, resolveTarget } from '../package/paths';
import { parseXml } from '../xml/parse';
import { serializeNode } from '../xml/serialize';
import { XmlElement, remove, walk, type XmlDocument } from '../xml/tree';
import { isContentNote } from './containers';
import type { Numbering } from './numbering';

/**
 * Bringing older content into newer's package. A deleted passage, paragraph or table is copied
 * from the older version into the output, where it must mean what it meant there:
 * - relationship ids (images, hyperlinks, embedded objects) are mapped to newer's relationship to
 *   the same target with the same bytes, or a relationship (and, for a part, the part and its
 *   content type) is added;
 * - a footnote or endnote reference gets a copy of its note in newer's notes part;
 * - bookmarks, comment anchors, permissions and move ranges are dropped (their partners and
 *   their comments live in the older package only), and so are ids that must be unique
 *   (paragraph ids, drawing ids) so they cannot clash with newer's;
 * - prefixes older declared and newer does not are declared where the copies land (newer
 *   borrows older's namespaces: package/package.ts, xml/namespaces.ts).
 */
const RELATIONSHIP_ATTRS = ['r:id', 'r:embed', 'r:link', 'r:pict', 'r:dm', 'r:lo', 'r:qs', 'r:cs', 'r:href'];
const DROPPED = new Set([
  'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:commentReference', 'w:permStart',
  'w:permEnd', 'w:moveFromRangeStart', 'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd', 'w:proofErr',
]);
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

interface Rel {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

export class PackageImport {
  private rels = new Map<string, Rel[]>();
  private relDocs = new Map<string, XmlDocument>();
  private mapped = new Map<string, string>();
  private noteIds = new Map<string, number>();
  private drawingId = 1_000_000;
  private madeParts = new Map<string, string>();

  private numIds = new Map<string, string>();

  constructor(
    private readonly older: DocxPackage,
    private readonly newer: DocxPackage,
    private readonly olderNumbering: Numbering,
    private readonly newerNumbering: Numbering,
  ) {
    newer.borrowNamespaces(older);
  }

  /** A key for a relationship of `part` in `pkg` that is equal across packages exactly when it points at the same thing. */
  relationshipKey(pkg: DocxPackage, part: string): (rId: string) => string {
    return (rId) => {
      const rel = this.relsOf(pkg, part).find((r) => r.id === rId);
      if (!rel) return `?${rId}`;
      if (rel.external) return `ext:${rel.type}:${rel.target}`;
      const bytes = pkg.read(rel.target);
      return `int:${rel.type}:${bytes ? `${bytes.length}:${checksum(bytes)}` : rel.target}`;
    };
  }

  /** Makes a detached copy of older content from `olderPart` fit for newer's `newerPart`, in place. */
  adopt(el: XmlElement, olderPart: string, newerPart: string): void {
    const doomed: XmlElement[] = [];
    walk(el, (e) => {
      if (DROPPED.has(e.name)) {
        doomed.push(e);
        return false;
      }
      for (const a of RELATIONSHIP_ATTRS) {
        const v = e.attr(a);
        if (v !== null) e.setAttr(a, this.mapRelationship(v, olderPart, newerPart));
      }
      if (e.name === 'w:hyperlink' || e.name === 'w:p' || e.name === 'w:tr') {
        if (e.attr('w14:paraId') !== null) e.removeAttr('w14:paraId');
        if (e.attr('w14:textId') !== null) e.removeAttr('w14:textId');
      }
      if (e.name === 'wp:docPr' || e.name === 'pic:cNvPr') e.setAttr('id', String(this.drawingId++));
      if (e.name === 'w:numId') {
        const id = e.attr('w:val');
        if (id !== null) e.setAttr('w:val', this.mapNumbering(id));
      }
      if (e.name === 'w:footnoteReference' || e.name === 'w:endnoteReference') {
        const id = this.copyNote(e.name === 'w:footnoteReference' ? 'footnotes' : 'endnotes', e.attr('w:id') ?? '');
        if (id === null) doomed.push(e);
        else e.setAttr('w:id', id);
      }
      return true;
    });
    for (const d of doomed) {
      const run = d.parent;
      remove(d);
      if (run?.name === 'w:r' && run.elements().every((k) => k.name === 'w:rPr')) remove(run);
    }
  }

  /**
   * Newer's numId for older's list `id`: one newer defines alike, else a copy of older's
   * definition added to newer's numbering part (so older's paragraphs, and older's numbering in a
   * pPrChange, keep older's list once rejected). Unchanged when either package has no numbering.
   */
  private mapNumbering(id: string): string {
    if (id === '0' || !this.newerNumbering.root) return id;
    let mapped = this.numIds.get(id);
    if (mapped !== undefined) return mapped;
    const key = this.olderNumbering.key(id);
    mapped = this.newerNumbering.ids().find((n) => this.newerNumbering.key(n) === key);
    if (mapped === undefined) {
      const num = this.olderNumbering.num(id);
      const abstract = this.olderNumbering.abstractOf(num);
      mapped = num && abstract ? this.newerNumbering.add(num, abstract) : id;
    }
    this.numIds.set(id, mapped);
    return mapped;
  }

  /** Writes the relationship parts this import added to. */
  finish(): void {
    for (const [name, doc] of this.relDocs) {
      if (!this.newer.has(name)) this.newer.addPart(name, new TextEncoder().encode(serializeRels(doc)));
    }
  }

  private relsOf(pkg: DocxPackage, part: string): Rel[] {
    const key = `${pkg === this.older ? 'o' : 'n'}:${part}`;
    let list = this.rels.get(key);
    if (list) return list;
    list = [];
    const doc = pkg === this.newer ? this.newerRels(part) : pkg.has(relsPathOf(part)) ? pkg.xml(relsPathOf(part)) : null;
    if (doc) {
      for (const r of doc.root.all('Relationship')) {
        const external = r.attr('TargetMode') === 'External';
        const target = r.attr('Target') ?? '';
        list.push({ id: r.attr('Id') ?? '', type: r.attr('Type') ?? '', target: external ? target : resolveTarget(part, target), external });
      }
    }
    this.rels.set(key, list);
    return list;
  }

  /** Newer's relationship part of `part`, parsed (created empty when the part has none). */
  private newerRels(part: string): XmlDocument {
    const name = relsPathOf(part);
    let doc = this.relDocs.get(name);
    if (doc) return doc;
    doc = this.newer.has(name) ? this.newer.xml(name) : parseXml(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${REL_NS}"></Relationships>`);
    this.relDocs.set(name, doc);
    return doc;
  }

  private mapRelationship(rId: string, olderPart: string, newerPart: string): string {
    const memo = `${olderPart}|${newerPart}|${rId}`;
    const known = this.mapped.get(memo);
    if (known) return known;
    const rel = this.relsOf(this.older, olderPart).find((r) => r.id === rId);
    if (!rel) return rId;
    const theirs = this.relsOf(this.newer, newerPart);
    let target = rel.target;
    let found = theirs.find((r) => r.type === rel.type && r.external === rel.external && r.target === rel.target && (rel.external || sameBytes(this.older, this.newer, rel.target)));
    if (!found && !rel.external) {
      const bytes = this.older.read(rel.target);
      if (!bytes) return rId;
      const same = theirs.find((r) => r.type === rel.type && !r.external && sameBytes(this.older, this.newer, rel.target, r.target));
      if (same) found = same;
      else {
        target = this.freeName(rel.target);
        this.newer.addPart(target, bytes);
        this.addContentType(rel.target, target);
      }
    }
    let id = found?.id;
    if (!id) {
      id = this.freeId(theirs);
      const doc = this.newerRels(newerPart);
      doc.root.append(
        XmlElement.create('Relationship', {
          Id: id,
          Type: rel.type,
          Target: rel.external ? target : relativeTarget(newerPart, target),
          ...(rel.external ? { TargetMode: 'External' } : {}),
        }),
      );
      theirs.push({ id, type: rel.type, target, external: rel.external });
    }
    this.mapped.set(memo, id);
    return id;
  }

  private freeId(rels: readonly Rel[]): string {
    for (let n = rels.length + 1; ; n++) {
      const id = `rIdCmp${n}`;
      if (!rels.some((r) => r.id === id)) return id;
    }
  }

  private freeName(name: string): string {
    if (!this.newer.has(name)) return name;
    const dot = name.lastIndexOf('.');
    for (let n = 1; ; n++) {
      const candidate = `${name.slice(0, dot)}-older${n}${name.slice(dot)}`;
      if (!this.newer.has(candidate)) return candidate;
    }
  }

  /** Gives a copied part the content type it had in the older package. */
  private addContentType(olderName: string, newerName: string): void {
    const theirs = this.older.xml('[Content_Types].xml').root;
    const ours = this.newer.xml('[Content_Types].xml').root;
    const override = theirs.all('Override').find((o) => o.attr('PartName')?.replace(/^\//, '') === olderName);
    if (override) {
      ours.append(XmlElement.create('Override', { PartName: `/${newerName}`, ContentType: override.attr('ContentType') ?? 'application/octet-stream' }));
      return;
    }
    const ext = newerName.slice(newerName.lastIndexOf('.') + 1).toLowerCase();
    if (ours.all('Default').some((d) => d.attr('Extension')?.toLowerCase() === ext)) return;
    const def = theirs.all('Default').find((d) => d.attr('Extension')?.toLowerCase() === ext);
    ours.insertAt(0, XmlElement.create('Default', { Extension: ext, ContentType: def?.attr('ContentType') ?? 'application/octet-stream' }));
  }

  /**
   * Newer's notes part when newer has none (its last note was deleted): made from older's, with
   * only the separator notes, and related from the main part.
   */
  private notesPart(kind: 'footnotes' | 'endnotes', olderPart: string): string {
    const made = this.madeParts.get(kind);
    if (made) return made;
    const olderRoot = this.older.xml(olderPart).root;
    const root = olderRoot.cloneShallow();
    for (const n of olderRoot.elements()) if (!isContentNote(n)) root.append(n.cloneDeep());
    const name = this.freeName(olderPart);
    this.newer.addPart(name, xmlPart(root));
    this.addContentType(olderPart, name);
    const type = this.relsOf(this.older, this.older.mainPart).find((r) => r.target === olderPart)?.type ?? '';
    const main = this.newer.mainPart;
    const theirs = this.relsOf(this.newer, main);
    const id = this.freeId(theirs);
    this.newerRels(main).root.append(XmlElement.create('Relationship', { Id: id, Type: type, Target: relativeTarget(main, name) }));
    theirs.push({ id, type, target: name, external: false });
    this.madeParts.set(kind, name);
    return name;
  }

  /** Copies note `id` of the older notes part into newer's; returns its new id (null when either part is missing). */
  private copyNote(kind: 'footnotes' | 'endnotes', id: string): string | null {
    const memo = `${kind}:${id}`;
    const done = this.noteIds.get(memo);
    if (done !== undefined) return String(done);
    const olderPart = this.older.storyParts.find((p) => p.role === kind)?.name;
    if (!olderPart) return null;
    const newerPart = this.newer.storyParts.find((p) => p.role === kind)?.name ?? this.notesPart(kind, olderPart);
    const noteName = kind === 'footnotes' ? 'w:footnote' : 'w:endnote';
    const note = this.older.xml(olderPart).root.all(noteName).find((n) => n.attr('w:id') === id);
    if (!note) return null;
    const root = this.newer.xml(newerPart).root;
    let max = 0;
    for (const n of root.all(noteName)) max = Math.max(max, Number(n.attr('w:id')) || 0);
    const copy = note.cloneDeep();
    copy.setAttr('w:id', String(max + 1));
    this.noteIds.set(memo, max + 1);
    this.adopt(copy, olderPart, newerPart);
    root.append(copy);
    return String(max + 1);
  }
}

/** Source of an XML part made from a parsed root. */
function xmlPart(root: XmlElement): Uint8Array {
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${serializeNode(root)}`);
}

function sameBytes(older: DocxPackage, newer: DocxPackage, olderName: string, newerName = olderName): boolean {
  const a = older.read(olderName);
  const b = newer.read(newerName);
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function checksum(bytes: Uint8Array): number {
  let h = 2166136261;
  const step = Math.max(1, Math.floor(bytes.length / 4096));
  for (let i = 0; i < bytes.length; i += step) h = Math.imul(h ^ bytes[i]!, 16777619);
  return h >>> 0;
}

/** A target for a relationship of `source` pointing at package part `target`, relative to the source's folder. */
function relativeTarget(source: string, target: string): string {
  const from = source.split('/').slice(0, -1);
  const to = target.split('/');
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  return [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
}

function serializeRels(doc: XmlDocument): string {
  let s = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="' + REL_NS + '">';
  for (const r of doc.root.all('Relationship')) s += `<Relationship${r.attrText()}/>`;
  return `${s}</Relationships>`;
}
