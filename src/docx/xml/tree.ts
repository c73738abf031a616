import { decodeXml, escapeAttr } from './escape';

/**
 * A light XML tree whose nodes remember where they came from in the source text. A node nobody
 * touched serialises as its original slice, byte for byte (namespaces, mc:Ignorable, unknown
 * elements and extension lists included); only elements on the path to a change are rebuilt.
 *
 * Invariant: an attached element marked `dirty` has dirty ancestors. Every mutation below keeps it by
 * calling `markDirty` on the element whose children or attributes changed, which also counts the
 * mutation on the element's document (so a writer can tell a part changed since it last wrote it).
 */

export type XmlNode = XmlElement | XmlText | XmlRaw;

interface Attr {
  name: string;
  /** Encoded value as written in the source (or produced by `escapeAttr`). */
  raw: string;
}

/**
 * The children of every parsed empty element (`<w:b/>`: about a third of a document's elements).
 * Shared and frozen, so parsing allocates no array for them; an element gets its own array the
 * first time a child is added (see `own`).
 */
export const NO_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];

const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export class XmlElement {
  /** On the prototype (see below), not in each of the hundreds of thousands of parsed elements. */
  declare readonly kind: 1;
  parent: XmlElement | null = null;
  /** Serialise from parts rather than from the source slice. */
  dirty: boolean;
  private attrs: Attr[] | null = null;
  private attrsChanged = false;

  constructor(
    public name: string,
    public children: XmlNode[],
    /** Source text this element was read from ('' for created elements). */
    readonly src: string,
    /** [start, end) of the whole element in `src`; -1 when created. */
    readonly start: number,
    public end: number,
    /** [attrStart, attrEnd) is the attribute text of the start tag, leading whitespace included. */
    private readonly attrStart: number,
    private readonly attrEnd: number,
  ) {
    this.dirty = start < 0;
  }

  static create(name: string, attrs?: Record<string, string>, children?: XmlNode[]): XmlElement {
    const el = new XmlElement(name, [], '', -1, -1, 0, 0);
    el.attrs = [];
    if (attrs) for (const [k, v] of Object.entries(attrs)) el.attrs.push({ name: k, raw: escapeAttr(v) });
    el.attrsChanged = true;
    if (children) for (const c of children) el.append(c);
    return el;
  }

  private attrList(): Attr[] {
    if (this.attrs) return this.attrs;
    const list: Attr[] = [];
    if (this.attrEnd > this.attrStart) {
      const text = this.src.slice(this.attrStart, this.attrEnd);
      ATTR.lastIndex = 0;
      for (let m = ATTR.exec(text); m; m = ATTR.exec(text)) list.push({ name: m[1]!, raw: m[2] ?? m[3] ?? '' });
    }
    this.attrs = list;
    return list;
  }

  attr(name: string): string | null {
    for (const a of this.attrList()) if (a.name === name) return decodeXml(a.raw);
    return null;
  }

  attrNames(): string[] {
    return this.attrList().map((a) => a.name);
  }

  setAttr(name: string, value: string): void {
    const list = this.attrList();
    const raw = escapeAttr(value);
    const found = list.find((a) => a.name === name);
    if (found) {
      if (found.raw === raw) return;
      found.raw = raw;
    } else list.push({ name, raw });
    this.attrsChanged = true;
    markDirty(this);
  }

  removeAttr(name: string): void {
    const list = this.attrList();
    const i = list.findIndex((a) => a.name === name);
    if (i < 0) return;
    list.splice(i, 1);
    this.attrsChanged = true;
    markDirty(this);
  }

  /** The start tag's attribute text: the source slice until an attribute changes. */
  attrText(): string {
    if (!this.attrsChanged) return this.src.slice(this.attrStart, this.attrEnd);
    let s = '';
    for (const a of this.attrList()) s += ` ${a.name}="${a.raw}"`;
    return s;
  }

  /** Copies the attributes (not the children) into a new created element. */
  cloneShallow(name = this.name): XmlElement {
    const el = XmlElement.create(name);
    el.attrs = this.attrList().map((a) => ({ ...a }));
    return el;
  }

  /** A detached deep copy; clean subtrees keep serialising from the source. */
  cloneDeep(): XmlElement {
    const el = this.cloneShallow();
    for (const c of this.children) el.append(c.kind === 1 ? c.cloneDeep() : c.kind === 2 ? new XmlText(c.text) : new XmlRaw(c.raw));
    return el;
  }

  /**
   * A detached deep copy that still reads from the same source text: a clean element's copy is
   * clean and serialises as the same slice, its attributes are parsed only if asked for. Cheaper
   * than cloneDeep for a whole story; `each` is told every element copied with its original.
   */
  copyLinked(each: (copy: XmlElement, original: XmlElement) => void): XmlElement {
    const el = new XmlElement(this.name, NO_CHILDREN, this.src, this.start, this.end, this.attrStart, this.attrEnd);
    el.dirty = this.dirty;
    if (this.attrs) el.attrs = this.attrs.map((a) => ({ ...a }));
    el.attrsChanged = this.attrsChanged;
    each(el, this);
    if (this.children.length) {
      const kids: XmlNode[] = new Array<XmlNode>(this.children.length);
      for (let i = 0; i < kids.length; i++) {
        const c = this.children[i]!;
        const k = c.kind === 1 ? c.copyLinked(each) : c.kind === 2 ? (c.clean ? new XmlText(null, c.src, c.start, c.end) : new XmlText(c.text)) : new XmlRaw(c.raw);
        k.parent = el;
        kids[i] = k;
      }
      el.children = kids;
    }
    return el;
  }

  // ---- children -------------------------------------------------------------------------------

  first(name: string): XmlElement | null {
    for (const c of this.children) if (c.kind === 1 && c.name === name) return c;
    return null;
  }

  all(name: string): XmlElement[] {
    const out: XmlElement[] = [];
    for (const c of this.children) if (c.kind === 1 && c.name === name) out.push(c);
    return out;
  }

  elements(): XmlElement[] {
    const out: XmlElement[] = [];
    for (const c of this.children) if (c.kind === 1) out.push(c);
    return out;
  }

  /** The children array, this element's own (not the shared NO_CHILDREN) so it can grow. */
  private own(): XmlNode[] {
    if (this.children === NO_CHILDREN) this.children = [];
    return this.children;
  }

  append(child: XmlNode): void {
    detach(child);
    child.parent = this;
    this.own().push(child);
    markDirty(this);
  }

  insertAt(index: number, child: XmlNode): void {
    detach(child);
    child.parent = this;
    this.own().splice(index, 0, child);
    markDirty(this);
  }

  insertBefore(child: XmlNode, ref: XmlNode): void {
    detach(child);
    const kids = this.own();
    const i = kids.indexOf(ref);
    child.parent = this;
    kids.splice(i < 0 ? kids.length : i, 0, child);
    markDirty(this);
  }

  insertAfter(child: XmlNode, ref: XmlNode): void {
    detach(child);
    const kids = this.own();
    const i = kids.indexOf(ref);
    child.parent = this;
    kids.splice(i < 0 ? kids.length : i + 1, 0, child);
    markDirty(this);
  }

  /** Replaces all children. */
  setChildren(children: XmlNode[]): void {
    for (const c of this.children) c.parent = null;
    this.children = [];
    for (const c of children) {
      detach(c);
      c.parent = this;
      this.children.push(c);
    }
    markDirty(this);
  }
}

export class XmlText {
  /** On the prototype (see below). */
  declare readonly kind: 2;
  parent: XmlElement | null = null;
  private decoded: string | null;

  constructor(
    value: string | null,
    readonly src = '',
    readonly start = -1,
    readonly end = -1,
  ) {
    this.decoded = value;
  }

  /** Whether the text still serialises from its source slice. */
  get clean(): boolean {
    return this.start >= 0 && this.decodedFromSource;
  }
  private decodedFromSource = true;

  get text(): string {
    if (this.decoded === null) this.decoded = decodeXml(this.src.slice(this.start, this.end));
    return this.decoded;
  }

  set text(value: string) {
    this.decoded = value;
    this.decodedFromSource = false;
    if (this.parent) markDirty(this.parent);
  }
}

/**
 * A node's kind is its class's: held once on each prototype, it costs a parsed part nothing per
 * node (a field would be 8 bytes in each element and text, copied by every scavenge of a freshly
 * parsed tree; the collector's copying is most of what opening a large part costs).
 */
Object.defineProperty(XmlElement.prototype, 'kind', { value: 1 });
Object.defineProperty(XmlText.prototype, 'kind', { value: 2 });

/** A comment, processing instruction, CDATA section or XML declaration, kept verbatim. */
export class XmlRaw {
  readonly kind = 3 as const;
  parent: XmlElement | null = null;
  constructor(readonly raw: string) {}
}

/** The document whose root an element is; markDirty finds it at the top of the path. */
const documentOfRoot = new WeakMap<XmlElement, XmlDocument>();

/**
 * A clock markDirty advances, and for each element it marked the time it last did: so a walk can
 * tell which subtrees did not change since it last looked (only marked elements are stored).
 */
let clock = 0;
const changedAt = new WeakMap<XmlElement, number>();

/** The time now: a subtree whose `lastChanged` is at most this has not changed since. */
export function changeClock(): number {
  return clock;
}

/** When anything in the element's subtree last changed (0: never, since parsing). */
export function lastChanged(el: XmlElement): number {
  return changedAt.get(el) ?? 0;
}

export class XmlDocument {
  /** How many mutations the tree has seen since it was parsed. */
  mutations = 0;

  constructor(
    readonly src: string,
    /** Prolog nodes, the root element and anything after it, in source order. */
    readonly nodes: XmlNode[],
    readonly root: XmlElement,
  ) {
    documentOfRoot.set(root, this);
  }
}

export function markDirty(el: XmlElement | null): void {
  const now = ++clock;
  let top: XmlElement | null = null;
  for (; el; el = el.parent) {
    el.dirty = true;
    changedAt.set(el, now);
    top = el;
  }
  const doc = top ? documentOfRoot.get(top) : undefined;
  if (doc) doc.mutations++;
}

function detach(node: XmlNode): void {
  const p = node.parent;
  if (!p) return;
  const i = p.children.indexOf(node);
  if (i >= 0) p.children.splice(i, 1);
  node.parent = null;
  markDirty(p);
}

export function remove(node: XmlNode): void {
  detach(node);
}

/** Replaces an element by its children, in place. */
export function unwrap(el: XmlElement): void {
  const p = el.parent;
  if (!p) return;
  const i = p.children.indexOf(el);
  const kids = el.children;
  el.children = [];
  for (const k of kids) k.parent = p;
  p.children.splice(i, 1, ...kids);
  el.parent = null;
  markDirty(p);
}

export function replaceWith(node: XmlNode, replacement: XmlNode[]): void {
  const p = node.parent;
  if (!p) return;
  for (const r of replacement) detach(r);
  const i = p.children.indexOf(node);
  for (const r of replacement) r.parent = p;
  p.children.splice(i, 1, ...replacement);
  node.parent = null;
  markDirty(p);
}

/** Preorder walk; return false from `visit` to skip an element's children. */
export function walk(root: XmlElement, visit: (el: XmlElement) => boolean | void): void {
  const stack: XmlElement[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    if (visit(el) === false) continue;
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i]!;
      if (k.kind === 1) stack.push(k);
    }
  }
}

/** Concatenated text of the given text-bearing elements below `el` (e.g. w:t, w:delText). */
export function textOf(el: XmlElement, textNames: ReadonlySet<string>): string {
  let s = '';
  walk(el, (e) => {
    if (textNames.has(e.name)) {
      for (const c of e.children) if (c.kind === 2) s += c.text;
      return false;
    }
    return true;
  });
  return s;
}

/** Whether `el` is `root` or still hangs below it (a removed subtree does not). */
export function isWithin(el: XmlElement, root: XmlElement): boolean {
  let p: XmlElement | null = el;
  while (p && p !== root) p = p.parent;
  return p === root;
}

export function ancestor(el: XmlElement, name: string): XmlElement | null {
  for (let p = el.parent; p; p = p.parent) if (p.name === name) return p;
  return null;
}
