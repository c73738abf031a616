import { unzipSync } from 'fflate';
import { parseXml } from '../../src/docx/xml/parse';
import type { XmlElement } from '../../src/docx/xml/tree';

/**
 * Test oracle: what a namespace-aware XML parser (Word's, libxml2's, expat's) refuses, checked on
 * every XML part of a package: an element or attribute whose prefix no ancestor declares, a
 * prefix undeclared (`xmlns:p=""`), two attributes with the same expanded name, and a prefix
 * named by markup compatibility (mc:Ignorable, mc:Choice Requires, mc:MustUnderstand,
 * mc:ProcessContent) that is not declared where it is named (ECMA-376 Part 3, 7.1: an error).
 * Written apart from the engine's own namespace code so the two cannot share a mistake.
 * Returns the problems, one line each, deduplicated per part.
 */
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const XML = 'http://www.w3.org/XML/1998/namespace';
const PREFIX_LISTS = ['Ignorable', 'MustUnderstand', 'ProcessContent', 'Requires'];

export function namespaceProblems(docx: Uint8Array): string[] {
  const problems = new Set<string>();
  const files = unzipSync(docx, { filter: (f) => /\.(xml|rels)$/i.test(f.name) });
  for (const [name, data] of Object.entries(files)) {
    const text = new TextDecoder().decode(data);
    let root: XmlElement;
    try {
      root = parseXml(text.replace(/^\uFEFF/, '')).root;
    } catch (e) {
      problems.add(`${name}: not well-formed: ${(e as Error).message}`);
      continue;
    }
    check(root, new Map([['xml', XML]]), (p) => problems.add(`${name}: ${p}`));
  }
  return [...problems].sort();
}

function check(el: XmlElement, outer: ReadonlyMap<string, string>, report: (p: string) => void): void {
  let scope = outer;
  const names = el.attrNames();
  for (const a of names) {
    if (!a.startsWith('xmlns:')) continue;
    const prefix = a.slice(6);
    const uri = el.attr(a) ?? '';
    if (uri === '') report(`<${el.name}> undeclares prefix ${prefix}`);
    if (scope === outer) scope = new Map(outer);
    (scope as Map<string, string>).set(prefix, uri);
  }
  const uriOf = (qname: string): string | null => {
    const colon = qname.indexOf(':');
    if (colon < 0) return '';
    return scope.get(qname.slice(0, colon)) ?? null;
  };
  if (uriOf(el.name) === null) report(`element <${el.name}>: prefix not declared`);
  const expanded = new Set<string>();
  for (const a of names) {
    if (a === 'xmlns' || a.startsWith('xmlns:')) continue;
    const uri = uriOf(a);
    if (uri === null) {
      report(`attribute ${a} on <${el.name}>: prefix not declared`);
      continue;
    }
    const key = `${a.includes(':') ? uri : ''}|${a.slice(a.indexOf(':') + 1)}`;
    if (expanded.has(key)) report(`<${el.name}> has attribute ${a} twice (same namespace and name)`);
    expanded.add(key);
    if (uri === MC || (el.name.includes(':') && uriOf(el.name) === MC && !a.includes(':'))) {
      const local = a.slice(a.indexOf(':') + 1);
      if (!PREFIX_LISTS.includes(local)) continue;
      for (const token of (el.attr(a) ?? '').split(/\s+/).filter(Boolean)) {
        const prefix = local === 'ProcessContent' ? token.slice(0, Math.max(0, token.indexOf(':'))) : token;
        if (prefix && !scope.has(prefix)) report(`${local} on <${el.name}> names prefix ${prefix}, which is not declared`);
      }
    }
  }
  for (const c of el.children) if (c.kind === 1) check(c, scope, report);
}
