import type { XmlElement } from '../xml/tree';
import { serializeNode } from '../xml/serialize';
import type { Site } from './sites';

/**
 * The short, readable `text_preview` of a change: the inserted or deleted words, or a sentence
 * naming what a structural or formatting change does ("Formatting: bold", "Row inserted").
 */
const MAX = 80;

/** Visible text of content, in reading order: text, deleted text, tabs and breaks as spaces. */
export function visibleText(el: XmlElement): string {
  let s = '';
  const go = (e: XmlElement): void => {
    switch (e.name) {
      case 'w:t':
      case 'w:delText':
      case 'm:t':
        for (const c of e.children) if (c.kind === 2) s += c.text;
        return;
      case 'w:tab':
      case 'w:br':
      case 'w:cr':
        s += ' ';
        return;
      case 'w:noBreakHyphen':
        s += '-';
        return;
      case 'w:pPr':
      case 'w:rPr':
      case 'w:instrText':
      case 'w:delInstrText':
      case 'mc:Fallback':
        return;
      case 'w:p':
        if (s && !s.endsWith(' ')) s += ' ';
        break;
    }
    for (const c of e.children) if (c.kind === 1) go(c);
  };
  go(el);
  return s;
}

export function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > MAX ? `${t.slice(0, MAX - 1)}…` : t;
}

/**
 * What inserted or deleted content is when it is only whitespace, in the lawyer's words: "a tab",
 * "3 spaces", "a line break", "a tab and 2 spaces"; '' when it holds anything else (text, an
 * object), or nothing.
 */
export function whitespaceWords(els: readonly XmlElement[]): string {
  const counts = { tab: 0, space: 0, 'line break': 0, 'page break': 0 };
  let other = false;
  const go = (e: XmlElement): void => {
    switch (e.name) {
      case 'w:t':
      case 'w:delText':
        for (const c of e.children) {
          if (c.kind !== 2) continue;
          for (const ch of c.text) {
            if (ch === ' ' || ch === '\u00a0' || ch === '\u2002' || ch === '\u2003' || ch === '\u2009') counts.space++;
            else if (ch === '\t') counts.tab++;
            else other = true;
          }
        }
        return;
      case 'w:tab':
      case 'w:ptab':
        counts.tab++;
        return;
      case 'w:br':
        counts[e.attr('w:type') === 'page' ? 'page break' : 'line break']++;
        return;
      case 'w:cr':
        counts['line break']++;
        return;
      case 'w:rPr':
      case 'w:instrText':
      case 'w:delInstrText':
      case 'w:fldChar':
      case 'w:lastRenderedPageBreak':
      case 'w:bookmarkStart':
      case 'w:bookmarkEnd':
      case 'w:proofErr':
        return;
      case 'w:drawing':
      case 'w:pict':
      case 'w:object':
      case 'w:sym':
      case 'w:noBreakHyphen':
      case 'w:softHyphen':
      case 'w:footnoteReference':
      case 'w:endnoteReference':
      case 'm:oMath':
        other = true;
        return;
    }
    for (const c of e.children) if (c.kind === 1) go(c);
  };
  for (const el of els) go(el);
  const items = Object.entries(counts).filter(([, n]) => n > 0).map(([noun, n]) => (n === 1 ? `a ${noun}` : `${n} ${noun}s`));
  if (other || !items.length) return '';
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function contentNoun(el: XmlElement): string {
  let noun = 'content';
  const seek = (e: XmlElement): void => {
    if (e.name === 'w:drawing' || e.name === 'w:pict' || e.name === 'w:object') noun = 'image or object';
    else if (e.name === 'w:fldChar' || e.name === 'w:instrText' || e.name === 'w:delInstrText' || e.name === 'w:fldSimple') noun = noun === 'content' ? 'field code' : noun;
    else if (e.name === 'm:oMath' || e.name === 'm:r' || e.parent?.name === 'm:r' || e.name === 'm:ctrlPr' || e.parent?.name === 'm:ctrlPr') noun = noun === 'content' ? 'math' : noun;
    for (const c of e.children) if (c.kind === 1) seek(c);
  };
  seek(el);
  return noun;
}

const PROPERTY_WORDS: Record<string, string> = {
  'w:b': 'bold', 'w:bCs': 'bold', 'w:i': 'italic', 'w:iCs': 'italic', 'w:u': 'underline', 'w:strike': 'strikethrough',
  'w:dstrike': 'double strikethrough', 'w:color': 'font color', 'w:sz': 'font size', 'w:szCs': 'font size',
  'w:rFonts': 'font', 'w:highlight': 'highlight', 'w:caps': 'all caps', 'w:smallCaps': 'small caps',
  'w:vertAlign': 'superscript/subscript', 'w:shd': 'shading', 'w:rStyle': 'character style', 'w:lang': 'language',
  'w:spacing': 'spacing', 'w:vanish': 'hidden', 'w:kern': 'kerning', 'w:position': 'position', 'w:bdr': 'border',
  'w:pStyle': 'style', 'w:jc': 'alignment', 'w:ind': 'indentation', 'w:numPr': 'numbering', 'w:keepNext': 'keep with next',
  'w:keepLines': 'keep lines together', 'w:pageBreakBefore': 'page break before', 'w:pBdr': 'borders', 'w:tabs': 'tabs',
  'w:outlineLvl': 'outline level', 'w:widowControl': 'widow control', 'w:contextualSpacing': 'contextual spacing',
  'w:tblStyle': 'table style', 'w:tblW': 'table width', 'w:tblBorders': 'borders', 'w:tblLayout': 'layout',
  'w:tblInd': 'indent', 'w:tblLook': 'style options', 'w:tblCellMar': 'cell margins', 'w:tcW': 'width',
  'w:gridSpan': 'merged columns', 'w:vMerge': 'merged rows', 'w:tcBorders': 'borders', 'w:vAlign': 'vertical alignment',
  'w:trHeight': 'height', 'w:cantSplit': "can't split", 'w:tblHeader': 'header row', 'w:pgSz': 'page size',
  'w:pgMar': 'margins', 'w:cols': 'columns', 'w:type': 'section start', 'w:pgNumType': 'page numbering',
  'w:titlePg': 'title page', 'w:docGrid': 'grid', 'w:lnNumType': 'line numbers', 'w:textDirection': 'text direction',
  'w:bidi': 'right-to-left', 'w:rtl': 'right-to-left',
};

/** Children that are tracked on their own or are not properties; ignored when comparing. */
const NOT_PROPERTIES = new Set([
  'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo', 'w:rPr', 'w:sectPr', 'w:headerReference', 'w:footerReference',
  'w:cellIns', 'w:cellDel', 'w:cellMerge', 'w:rPrChange', 'w:pPrChange', 'w:tblPrChange', 'w:trPrChange',
  'w:tcPrChange', 'w:sectPrChange', 'w:tblPrExChange',
]);

/** Names of the properties that differ between the current properties and the old ones. */
export function changedProperties(current: XmlElement | null, old: XmlElement | null): string[] {
  const index = (el: XmlElement | null): Map<string, string> => {
    const m = new Map<string, string>();
    if (el) for (const c of el.elements()) if (!NOT_PROPERTIES.has(c.name)) m.set(c.name, serializeNode(c));
    return m;
  };
  const a = index(current);
  const b = index(old);
  const words: string[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    if (a.get(name) === b.get(name)) continue;
    const word = PROPERTY_WORDS[name] ?? name.replace(/^w:/, '');
    if (!words.includes(word)) words.push(word);
  }
  return words;
}

function propertyPreview(label: string, site: Site): string {
  const holder = site.el.parent; // the live *Pr element
  const old = site.el.first(holder?.name ?? '') ?? null;
  const words = changedProperties(holder, old);
  return clip(words.length ? `${label}: ${words.join(', ')}` : `${label} changed`);
}

export function previewOf(sites: readonly Site[]): string {
  const lead = sites[0]!;
  const el = lead.el;
  switch (lead.type) {
    case 'run-ins': {
      const t = clip(visibleText(el));
      return t || `Inserted ${whitespaceWords([el]) || contentNoun(el)}`;
    }
    case 'run-del': {
      const t = clip(visibleText(el));
      return t || `Deleted ${whitespaceWords([el]) || contentNoun(el)}`;
    }
    case 'move-from':
    case 'move-to':
    case 'mark-move-from':
    case 'mark-move-to': {
      const from = sites.filter((s) => s.type === 'move-from').map((s) => visibleText(s.el)).join('');
      const to = sites.filter((s) => s.type === 'move-to').map((s) => visibleText(s.el)).join('');
      const t = clip(from || to);
      return t ? clip(`Moved: ${t}`) : 'Moved paragraph mark';
    }
    case 'mark-ins':
      return 'Paragraph mark inserted (splits the paragraph)';
    case 'mark-del':
      return 'Paragraph mark deleted (joins with next)';
    case 'row-ins':
    case 'row-del': {
      const row = el.parent?.parent;
      const t = row ? clip(visibleText(row)) : '';
      const head = lead.type === 'row-ins' ? 'Row inserted' : 'Row deleted';
      return t ? clip(`${head}: ${t}`) : head;
    }
    case 'cell-ins':
      return 'Cell inserted';
    case 'cell-del':
      return 'Cell deleted';
    case 'cell-merge':
      return 'Cells merged';
    case 'rpr-change':
      return propertyPreview('Formatting', lead);
    case 'ppr-change':
      return propertyPreview('Paragraph formatting', lead);
    case 'tblpr-change':
      return propertyPreview('Table properties', lead);
    case 'tblgrid-change':
      return 'Table column widths changed';
    case 'tblprex-change':
      return propertyPreview('Table row exceptions', lead);
    case 'trpr-change':
      return propertyPreview('Row properties', lead);
    case 'tcpr-change':
      return propertyPreview('Cell properties', lead);
    case 'sectpr-change':
      return propertyPreview('Section properties', lead);
    case 'numbering-change':
      return 'Numbering changed';
    case 'num-ins':
      return 'Numbering added';
    case 'proposed': {
      const t = clip(visibleText(el.first('w:sdtContent') ?? el));
      return t ? clip(`Proposed: ${t}`) : 'Proposed content';
    }
    case 'control-ins':
    case 'control-del':
    case 'control-move-from':
    case 'control-move-to': {
      const target = lead.boundary?.target;
      const noun = target?.name === 'w:customXml' ? 'Custom XML element' : 'Content control';
      const verb = lead.type === 'control-ins' ? 'inserted' : lead.type === 'control-del' ? 'removed' : 'moved';
      const t = target ? clip(visibleText(target.first('w:sdtContent') ?? target)) : '';
      return clip(t ? `${noun} ${verb}: ${t}` : `${noun} ${verb}`);
    }
    case 'field-code-ins':
      return 'Inserted field code';
    case 'field-code-del':
      return 'Deleted field code';
  }
}
