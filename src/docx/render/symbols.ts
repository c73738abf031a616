import { symbolFontText } from '../numbering/formats';
import type { DocxPackage } from '../package/package';
import type { PartScan } from '../revisions/sites';
import type { XmlOverlay } from '../xml/overlay';
import { walk, XmlElement, XmlText } from '../xml/tree';

const NUMBERING_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering';

/**
 * Bullets and symbols set in Symbol or Wingdings, as the Unicode characters Word shows: a browser
 * has no such font (or one with other code points), so docx-preview showed nothing. In the
 * numbering part each bullet level's w:lvlText is written with the mapped character and its symbol
 * font is left out; each w:sym run child is replaced by a w:t of the
 * mapped character. Characters without a mapping keep their font.
 */
export function mapSymbols(overlay: XmlOverlay, scans: readonly PartScan[], pkg: DocxPackage): void {
  const numbering = scans.find((s) => s.role === 'numbering')?.doc ?? (() => {
    const name = pkg.relatedPart(NUMBERING_REL);
    return name && pkg.has(name) ? pkg.xml(name) : null;
  })();
  if (numbering) {
    walk(numbering.root, (el) => {
      if (el.name !== 'w:lvl') return true;
      const text = el.first('w:lvlText');
      const fonts = el.first('w:rPr')?.first('w:rFonts');
      const font = fonts?.attr('w:ascii') ?? fonts?.attr('w:hAnsi') ?? '';
      const val = text?.attr('w:val');
      const mapped = val && fonts ? symbolFontText(val, font) : null;
      if (text && fonts && mapped !== null) {
        overlay.replace(text, [XmlElement.create('w:lvlText', { 'w:val': mapped })]);
        overlay.replace(fonts, []);
      }
      return false;
    });
  }
  for (const scan of scans) {
    if (scan.role === 'styles' || scan.role === 'numbering') continue;
    walk(scan.doc.root, (el) => {
      if (el.name !== 'w:sym') return true;
      const code = parseInt(el.attr('w:char') ?? '', 16);
      const mapped = Number.isFinite(code) ? symbolFontText(String.fromCharCode(code), el.attr('w:font') ?? '') : null;
      if (mapped !== null) overlay.replace(el, [XmlElement.create('w:t', { 'xml:space': 'preserve' }, [new XmlText(mapped)])]);
      return false;
    });
  }
}
