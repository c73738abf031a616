import { referenceProblem } from './escape';
import { NO_CHILDREN, XmlDocument, XmlElement, XmlRaw, XmlText, type XmlNode } from './tree';

/**
 * A small, strict XML tokenizer for OOXML parts. It builds the light tree of ./tree with source
 * offsets so untouched nodes serialise byte for byte, and it refuses what an OOXML part never
 * needs and an attacker might use: DTDs (`<!DOCTYPE`, `<!ENTITY`, hence external entities and
 * entity expansion) and references to undefined entities. Text is kept encoded until read.
 *
 * Chosen over libxml2-wasm/htmlparser2/xmldom after measuring (see bench/engine.ts): one pass of
 * indexOf/charCodeAt, no intermediate token objects, attributes parsed only when read.
 */
export class XmlSyntaxError extends Error {}

/**
 * Deepest element nesting accepted. Real parts nest a few dozen levels; the engine's tree
 * walkers recurse, so a hostile part nested 100,000 deep overflowed the stack (a RangeError,
 * answered 500) instead of being refused as invalid (422). Measured: walkers still pass at
 * 3,000 levels, so 1,000 leaves a wide margin. Found by test/reliability/fuzz.test.ts.
 */
export const MAX_XML_DEPTH = 1000;

export function parseXml(src: string): XmlDocument {
  // A DTD needs "<!DOCTYPE" (or "<!ENTITY") as markup, which the loop below refuses wherever it
  // stands; inside a comment or CDATA section it is only text. References are checked after it.
  const top: XmlNode[] = [];
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const len = src.length;
  let pos = 0;

  const add = (node: XmlNode) => {
    const parent = stack[stack.length - 1];
    if (parent) {
      node.parent = parent;
      parent.children.push(node);
    } else top.push(node);
  };

  while (pos < len) {
    const lt = src.indexOf('<', pos);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd > pos) {
      if (stack.length === 0) {
        // Outside the root only whitespace (and a BOM) may appear.
        if (!/^[\s\uFEFF]*$/.test(src.slice(pos, textEnd))) throw new XmlSyntaxError('text outside the root element');
        top.push(new XmlRaw(src.slice(pos, textEnd)));
      } else add(new XmlText(null, src, pos, textEnd));
    }
    if (lt < 0) break;
    const c = src.charCodeAt(lt + 1);
    if (c === 47 /* / */) {
      const gt = src.indexOf('>', lt);
      const open = stack.pop();
      if (gt < 0 || !open) throw new XmlSyntaxError('unexpected end tag');
      const nameEnd = lt + 2 + open.name.length;
      if (!src.startsWith(open.name, lt + 2) || src.slice(nameEnd, gt).trim() !== '') {
        throw new XmlSyntaxError(`end tag does not match <${open.name}>`);
      }
      open.end = gt + 1;
      pos = gt + 1;
    } else if (c === 63 /* ? */) {
      const e = src.indexOf('?>', lt);
      if (e < 0) throw new XmlSyntaxError('unterminated processing instruction');
      add(new XmlRaw(src.slice(lt, e + 2)));
      pos = e + 2;
    } else if (c === 33 /* ! */) {
      let e: number;
      if (src.startsWith('<!--', lt)) {
        e = src.indexOf('-->', lt + 4);
        if (e < 0) throw new XmlSyntaxError('unterminated comment');
        e += 3;
      } else if (src.startsWith('<![CDATA[', lt)) {
        e = src.indexOf(']]>', lt + 9);
        if (e < 0) throw new XmlSyntaxError('unterminated CDATA section');
        e += 3;
      } else {
        // <!DOCTYPE, <!ENTITY, <!ELEMENT...: document type declarations are refused outright.
        throw new XmlSyntaxError('document type declarations (DTD) are not allowed');
      }
      add(new XmlRaw(src.slice(lt, e)));
      pos = e;
    } else {
      let i = lt + 1;
      for (; i < len; i++) {
        const ch = src.charCodeAt(i);
        if (ch === 32 || ch === 62 || ch === 47 || ch === 9 || ch === 10 || ch === 13) break;
      }
      const name = src.slice(lt + 1, i);
      if (!name) throw new XmlSyntaxError('element without a name');
      const attrStart = i;
      let quote = 0;
      for (; i < len; i++) {
        const ch = src.charCodeAt(i);
        if (quote) {
          if (ch === quote) quote = 0;
          else if (ch === 60 /* < */) throw new XmlSyntaxError('"<" in an attribute value');
        } else if (ch === 34 || ch === 39) quote = ch;
        else if (ch === 62 /* > */) break;
      }
      if (i >= len) throw new XmlSyntaxError('unterminated start tag');
      const selfClosing = src.charCodeAt(i - 1) === 47;
      const el = new XmlElement(name, selfClosing ? NO_CHILDREN : [], src, lt, i + 1, attrStart, selfClosing ? i - 1 : i);
      if (stack.length === 0) {
        if (root) throw new XmlSyntaxError('more than one root element');
        root = el;
      }
      if (!selfClosing && stack.length >= MAX_XML_DEPTH) throw new XmlSyntaxError(`elements nested more than ${MAX_XML_DEPTH} levels deep`);
      add(el);
      if (!selfClosing) stack.push(el);
      pos = i + 1;
    }
  }
  if (stack.length) throw new XmlSyntaxError(`<${stack[stack.length - 1]!.name}> is not closed`);
  if (!root) throw new XmlSyntaxError('no root element');
  const badReference = referenceProblem(src);
  if (badReference) throw new XmlSyntaxError(badReference);
  return new XmlDocument(src, top, root);
}
