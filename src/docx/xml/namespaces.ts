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
const MC_NAMESPACE = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

export interface NamespaceBinding {
  uri: string;
  /** The origin listed the prefix in mc:Ignorable. */
  ignorable: boolean;
}

const DECLARATION = /xmlns:([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ATTRIBUTE = /([A-Za-z_][\w.-]*)(?::([\w.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** Markup-compatibility attributes whose value names prefixes (ProcessContent: qualified names). */
const PREFIX_LISTS = new Set(['Ignorable', 'MustUnderstand', 'ProcessContent', 'Requires']);
const NONE: readonly string[] = [];

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
  const memo = new Map<string, readonly string[]>();
  const need = (prefix: string, scope: ReadonlySet<string>) => {
    if (!scope.has(prefix) && !atRoot.has(prefix)) wanted.add(prefix);
  };
  const visit = (el: XmlElement, scope: ReadonlySet<string>): void => {
    // Parsed from this part's text and untouched: the same string, which `===` tells at once
    // (another part's text of another length too; only a copy from an equal-length text is compared).
    if (el.start >= 0 && !el.dirty && el.src === doc.src) return;
    let inner = scope;
    if (el.start < 0) {
      // A created element (a copy, or new markup): its attribute names are at hand, no text to scan.
      const names = el.attrNames();
      for (const a of names) {
        if (!a.startsWith('xmlns:')) continue;
        if (inner === scope) inner = new Set(scope);
        (inner as Set<string>).add(a.slice(6));
      }
      for (const a of names) {
        const colon = a.indexOf(':');
        const prefix = colon > 0 ? a.slice(0, colon) : null;
        if (prefix === 'xmlns') continue;
        if (prefix) need(prefix, inner);
        const local = colon > 0 ? a.slice(colon + 1) : a;
        if (PREFIX_LISTS.has(local)) for (const named of prefixesNamed(local, el.attr(a) ?? '')) need(named, inner);
      }
    } else {
      const attrs = el.attrText();
      if (attrs.includes('xmlns:')) {
        inner = new Set(scope);
        for (const prefix of declaredBy(attrs).keys()) (inner as Set<string>).add(prefix);
      }
      for (const prefix of attributePrefixes(attrs, memo)) need(prefix, inner);
    }
    const colon = el.name.indexOf(':');
    if (colon > 0) need(el.name.slice(0, colon), inner);
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

/**
 * Prefixes an element's attributes use, with those its markup-compatibility attributes name; one
 * pass that skips values (w:date's colons are not prefixes). Attribute texts repeat a great deal
 * (` w:val="center"`), so each distinct one is read once per write.
 */
function attributePrefixes(attrs: string, memo: Map<string, readonly string[]>): readonly string[] {
  if (attrs.length === 0) return NONE;
  const known = memo.get(attrs);
  if (known) return known;
  const out = new Set<string>();
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(attrs); m; m = ATTRIBUTE.exec(attrs)) {
    const prefix = m[2] === undefined ? null : m[1]!;
    if (prefix === 'xmlns') continue;
    if (prefix) out.add(prefix);
    const local = m[2] ?? m[1]!;
    if (!PREFIX_LISTS.has(local)) continue;
    for (const named of prefixesNamed(local, m[3] ?? m[4] ?? '')) out.add(named);
  }
  const list = out.size ? [...out] : NONE;
  if (memo.size > 50_000) memo.clear();
  memo.set(attrs, list);
  return list;
}

/** The prefixes a markup-compatibility attribute's value names (ProcessContent names qualified elements). */
function prefixesNamed(attribute: string, value: string): string[] {
  const out: string[] = [];
  for (const token of value.split(/\s+/)) {
    const prefix = attribute === 'ProcessContent' ? token.slice(0, Math.max(0, token.indexOf(':'))) : token;
    if (prefix) out.push(prefix);
  }
  return out;
}
