import type { XmlDocument, XmlElement, XmlNode } from './tree';

/**
 * Additions, renames and replacements laid over a parsed tree without changing it. The render variant is
 * written through an overlay, so the opened document stays exactly what it was and can go on
 * taking decisions (the service keeps a draft open between batches).
 *
 * Placement mirrors the tree's own insertions: nodes put before a reference go after those put
 * there earlier; nodes put after a reference, or at an element's start, go before those put
 * there earlier (as repeated `insertAt(i)` would); nodes put at an element's end go last.
 */
export class XmlOverlay {
  readonly before = new Map<XmlNode, XmlNode[]>();
  readonly after = new Map<XmlNode, XmlNode[]>();
  readonly atStart = new Map<XmlElement, XmlNode[]>();
  readonly atEnd = new Map<XmlElement, XmlNode[]>();
  readonly names = new Map<XmlElement, string>();
  /** Elements written as other nodes (a Symbol-font w:sym as the character Word shows). */
  readonly replaced = new Map<XmlElement, readonly XmlNode[]>();
  /** Elements that carry an addition or rename, with all their ancestors: the ones written from parts. */
  readonly touched = new Set<XmlElement>();

  insertBefore(ref: XmlNode, nodes: readonly XmlNode[]): void {
    if (!ref.parent) return;
    push(this.before, ref, nodes, false);
    this.touch(ref.parent);
  }

  insertAfter(ref: XmlNode, nodes: readonly XmlNode[]): void {
    if (!ref.parent) return;
    push(this.after, ref, nodes, true);
    this.touch(ref.parent);
  }

  prepend(el: XmlElement, nodes: readonly XmlNode[]): void {
    push(this.atStart, el, nodes, true);
    this.touch(el);
  }

  append(el: XmlElement, nodes: readonly XmlNode[]): void {
    push(this.atEnd, el, nodes, false);
    this.touch(el);
  }

  rename(el: XmlElement, name: string): void {
    this.names.set(el, name);
    this.touch(el);
  }

  /** Writes `nodes` where `el` stands, instead of it. */
  replace(el: XmlElement, nodes: readonly XmlNode[]): void {
    if (!el.parent) return;
    this.replaced.set(el, nodes);
    this.touch(el);
  }

  touches(doc: XmlDocument): boolean {
    return this.touched.has(doc.root);
  }

  private touch(el: XmlElement | null): void {
    while (el && !this.touched.has(el)) {
      this.touched.add(el);
      el = el.parent;
    }
  }
}

function push<K>(map: Map<K, XmlNode[]>, key: K, nodes: readonly XmlNode[], front: boolean): void {
  const list = map.get(key);
  if (!list) map.set(key, [...nodes]);
  else if (front) list.unshift(...nodes);
  else list.push(...nodes);
}
