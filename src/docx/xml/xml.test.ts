import { describe, expect, it } from 'vitest';
import { parseXml, XmlSyntaxError } from './parse';
import { serializeXml, serializeXmlUtf8 } from './serialize';
import { XmlElement, XmlText, remove, unwrap } from './tree';

const SAMPLE =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document xmlns:w="urn:w" xmlns:mc="urn:mc" mc:Ignorable="w14">' +
  '<w:body><!-- note --><w:p w:rsidR="00A"><w:r><w:t xml:space="preserve"> a &amp; b &lt; c </w:t></w:r>' +
  "<w14:ext  a = 'x' /><w:r><w:t>d&#233;j&#x E0;</w:t></w:r></w:p><![CDATA[raw <stuff>]]></w:body></w:document>";

describe('xml tree', () => {
  it('serialises an untouched document byte for byte', () => {
    const ok = SAMPLE.replace('&#x E0;', '&#xE0;');
    expect(serializeXml(parseXml(ok))).toBe(ok);
  });

  it('rebuilds only the path to a change and keeps sibling source slices', () => {
    const doc = parseXml(SAMPLE.replace('&#x E0;', '&#xE0;'));
    const p = doc.root.first('w:body')!.first('w:p')!;
    const runs = p.all('w:r');
    expect(runs[1]!.first('w:t')!.children[0]!.kind).toBe(2);
    expect((runs[1]!.first('w:t')!.children[0] as XmlText).text).toBe('déjà');
    remove(runs[1]!);
    const out = serializeXml(doc);
    expect(out).toContain("<w14:ext  a = 'x' />");
    expect(out).toContain('<w:t xml:space="preserve"> a &amp; b &lt; c </w:t>');
    expect(out).not.toContain('déj');
    expect(out).toContain('<!-- note -->');
    expect(out).toContain('<![CDATA[raw <stuff>]]>');
    expect(out.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document xmlns:w="urn:w"')).toBe(true);
  });

  it('writes UTF-8 bytes equal to the encoded text: untouched, rebuilt, multi-byte past its first guess, and a surrogate pair split over pieces', () => {
    const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
    const untouched = parseXml('<a>caf\u00e9 \u2019</a>');
    expect([...serializeXmlUtf8(untouched)]).toEqual(utf8('<a>caf\u00e9 \u2019</a>'));
    // Rebuilt: thousands of pieces, past one stretch, with three-byte text beyond the ASCII-sized guess.
    const doc = parseXml('<a><b>x</b></a>');
    // Each pair's halves in two text nodes: written as two pieces (some end a stretch), encoded as one character.
    for (let i = 0; i < 3000; i++) {
      // Mostly halves, so that stretches (cut by length) end on first halves too.
      const halves = Array.from({ length: 40 }, (_, k) => new XmlText(k % 2 ? '\ude00' : '\ud83d'));
      doc.root.append(XmlElement.create('w:t', {}, [new XmlText(`\u6587\u5b57 ${i} \u{1f600}\u00e9`), ...halves]));
    }
    const text = serializeXml(doc);
    expect(text).toContain('\u00e9\ud83d\ude00\ud83d\ude00');
    expect([...serializeXmlUtf8(doc)]).toEqual(utf8(text));
    // A lone half stays what TextEncoder makes of it (U+FFFD).
    const lone = parseXml('<a/>');
    lone.root.append(new XmlText('\ud83d'));
    expect([...serializeXmlUtf8(lone)]).toEqual(utf8(serializeXml(lone)));
  });

  it('escapes new text and attributes', () => {
    const doc = parseXml('<a><b x="1"/></a>');
    const b = doc.root.first('b')!;
    b.setAttr('x', 'q"<&');
    b.append(XmlElement.create('c', {}, [new XmlText('1 < 2 & 3')]));
    expect(serializeXml(doc)).toBe('<a><b x="q&quot;&lt;&amp;"><c>1 &lt; 2 &amp; 3</c></b></a>');
  });

  it('unwraps an element in place', () => {
    const doc = parseXml('<a><w:ins><r>1</r><r>2</r></w:ins><r>3</r></a>');
    unwrap(doc.root.first('w:ins')!);
    expect(serializeXml(doc)).toBe('<a><r>1</r><r>2</r><r>3</r></a>');
  });

  it.each([
    ['<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', /DTD/],
    ['<a>&ext;</a>', /undefined entity/],
    ['<a b="&ext;"/>', /undefined entity/],
    ['<a>&amp;&lt;&#65;&#x41;&ext;</a>', /undefined entity/],
    ['<a><!ENTITY x "y"></a>', /DTD/],
    ['<a><b></a>', /does not match/],
    ['<a>', /not closed/],
    ['<a/><b/>', /more than one root/],
    ['text<a/>', /outside the root/],
    ['<a x="<"/>', /attribute/],
    ['<a>&#1;</a>', /character XML cannot hold \(&#1;\)/],
    ['<a b="&#xFFFE;"/>', /character XML cannot hold/],
    ['<a>&#xD800;</a>', /character XML cannot hold/],
    ['<a>&#1114112;</a>', /character XML cannot hold/],
  ])('refuses %s', (xml, why) => {
    expect(() => parseXml(xml)).toThrow(XmlSyntaxError);
    expect(() => parseXml(xml)).toThrow(why);
  });

  it('accepts the predefined and numeric references, and DTD keywords that are only comment or CDATA text', () => {
    for (const xml of ['<a>&amp;&lt;&gt;&quot;&apos;&#65;&#x41;&#9;&#xA;&#13;&#xFFFD;&#x10FFFF;</a>', '<a><!-- <!DOCTYPE x> --><![CDATA[<!ENTITY y "z">]]></a>', '<a b="&amp;"/>']) {
      expect(() => parseXml(xml)).not.toThrow();
    }
  });
});
