import { decodeXml } from './escape';
import type { XmlDocument, XmlElement } from './tree';

/**
 * Namespace declarations for markup that moved. The tree names elements and attributes by their
 * qualified names, so a prefix means whatever the part it lands in declares. Markup the engine
 * brings from elsewhere (a comparison copies older's paragraphs, runs and properties into newer's
 * package; a restored or copied property may carry an extension attribute) can use a prefix the
 * receiving part never declares: no namespace-aware parser reads that part, and Word refuses the
 * file. Before a part is written, every prefix its rebuilt or borrowed markup uses is declared on
 * the part's root as the markup's origin declared it, and one its origin let consumers ignore is
 * listed in the root's mc:Ignorable too, so Word may drop it there as it could at the origin.
 *
 * Decided: a prefix the receiving part already declares keeps that part's meaning (OOXML's
 * prefixes are conventional, and strict and transitional `w` must stay one prefix).
 */
export const MC_NAMESPACE = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

export interface NamespaceBinding {
  uri: string;
  /** The origin listed the prefix in mc:Ignorable. */
  ignorable: boolean;
}

const DECLARATION = /xmlns:([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const PREFIXED_ATTRIBUTE = /(?:^|\s)([A-Za-z_][\w.-]*):[\w.-]+\s*=/g;
const PREFIX_LIST = /(?:^|\s)(?:[A-Za-z_][\w.-]*:)?(Ignorable|MustUnderstand|ProcessContent|Requires)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The bindings a part declares: its root's first (with its mc:Ignorable), then any made deeper in
 * its text (DrawingML declares its prefixes on the element that uses them).
 */
export function namespaceBindings(doc: XmlDocument): Map<string, NamespaceBinding> {
  const out = new Map<string, NamespaceBinding>();
  const root = doc.root;
  const mc = prefixFor(root, MC_NAMESPACE);
  const ignorable = new Set((mc ? root.attr(`${mc}:Ignorable`) ?? '' : '').split(/\s+/).filter(Boolean));
  for (const [prefix, uri] of declaredBy(root.attrText())) out.set(prefix, { uri, ignorable: ignorable.has(prefix) });
  for (const [prefix, uri] of declaredBy(doc.src)) if (!out.has(prefix)) out.set(prefix, { uri, ignorable: false });
  return out;
}

/**
 * Declares on the root of `doc` each prefix that its rebuilt or borrowed markup uses and no
 * ancestor declares, as `lookup` binds it. Subtrees still as parsed from the part itself are not
 * entered: their prefixes are declared where the part declared them. A prefix `lookup` does not
 * know is left as it is (the input used it unbound already).
 */
export function declareUsedPrefixes(doc: XmlDocument, lookup: (prefix: string) => NamespaceBinding | null): void {
  const root = doc.root;
  if (!root.dirty) return;
  const atRoot = new Set(declaredBy(root.attrText()).keys());
  const wanted = new Set<string>();
  const visit = (el: XmlElement, scope: ReadonlySet<string>): void => {
    const own = el.start >= 0 && el.src === doc.src;
    if (own && !el.dirty) return;
    const attrs = el.attrText();
    let inner = scope;
    if (attrs.includes('xmlns:')) {
      inner = new Set(scope);
      for (const prefix of declaredBy(attrs).keys()) (inner as Set<string>).add(prefix);
    }
    for (const prefix of usedBy(el.name, attrs)) if (!inner.has(prefix) && !atRoot.has(prefix)) wanted.add(prefix);
    for (const c of el.children) if (c.kind === 1) visit(c, inner);
  };
  visit(root, new Set(['xml', 'xmlns']));
  for (const prefix of wanted) {
    const binding = lookup(prefix);
    if (!binding) continue;
    root.setAttr(`xmlns:${prefix}`, binding.uri);
    if (binding.ignorable) listIgnorable(root, prefix);
  }
}

/** Adds `prefix` to the root's mc:Ignorable, declaring the markup-compatibility namespace if needed. */
function listIgnorable(root: XmlElement, prefix: string): void {
  let mc = prefixFor(root, MC_NAMESPACE);
  if (!mc) {
    mc = 'mc';
    for (let n = 1; root.attr(`xmlns:${mc}`) !== null; n++) mc = `mc${n}`;
    root.setAttr(`xmlns:${mc}`, MC_NAMESPACE);
  }
  const list = (root.attr(`${mc}:Ignorable`) ?? '').split(/\s+/).filter(Boolean);
  if (!list.includes(prefix)) root.setAttr(`${mc}:Ignorable`, [...list, prefix].join(' '));
}

/** The prefix an element itself declares for `uri`, if any. */
function prefixFor(el: XmlElement, uri: string): string | null {
  for (const [prefix, u] of declaredBy(el.attrText())) if (u === uri) return prefix;
  return null;
}

function declaredBy(text: string): Map<string, string> {
  const out = new Map<string, string>();
  DECLARATION.lastIndex = 0;
  for (let m = DECLARATION.exec(text); m; m = DECLARATION.exec(text)) {
    if (!out.has(m[1]!)) out.set(m[1]!, decodeXml(m[2] ?? m[3] ?? ''));
  }
  return out;
}

/** Prefixes an element's name and attributes use, with those its markup-compatibility attributes name. */
function usedBy(name: string, attrs: string): string[] {
  const out: string[] = [];
  const colon = name.indexOf(':');
  if (colon > 0) out.push(name.slice(0, colon));
  if (attrs.indexOf(':') < 0 && !attrs.includes('Requires')) return out;
  PREFIXED_ATTRIBUTE.lastIndex = 0;
  for (let m = PREFIXED_ATTRIBUTE.exec(attrs); m; m = PREFIXED_ATTRIBUTE.exec(attrs)) if (m[1] !== 'xmlns') out.push(m[1]!);
  PREFIX_LIST.lastIndex = 0;
  for (let m = PREFIX_LIST.exec(attrs); m; m = PREFIX_LIST.exec(attrs)) {
    for (const token of (m[2] ?? m[3] ?? '').split(/\s+/)) {
      const prefix = m[1] === 'ProcessContent' ? token.slice(0, Math.max(0, token.indexOf(':'))) : token;
      if (prefix) out.push(prefix);
    }
  }
  return out;
}
