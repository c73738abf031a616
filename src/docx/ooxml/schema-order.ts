import type { XmlElement, XmlNode } from '../xml/tree';

/**
 * Child order of the property elements the engine rewrites (ECMA-376 Part 1, 17.3-17.6;
 * transitional schema wml.xsd). Word refuses a file whose *Pr children are out of order, so
 * whenever the engine restores or inserts properties it puts the children back in this order.
 */
const R_PR = [
  'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo',
  'w:rStyle', 'w:rFonts', 'w:b', 'w:bCs', 'w:i', 'w:iCs', 'w:caps', 'w:smallCaps', 'w:strike', 'w:dstrike',
  'w:outline', 'w:shadow', 'w:emboss', 'w:imprint', 'w:noProof', 'w:snapToGrid', 'w:vanish', 'w:webHidden',
  'w:color', 'w:spacing', 'w:w', 'w:kern', 'w:position', 'w:sz', 'w:szCs', 'w:highlight', 'w:u', 'w:effect',
  'w:bdr', 'w:shd', 'w:fitText', 'w:vertAlign', 'w:rtl', 'w:cs', 'w:em', 'w:lang', 'w:eastAsianLayout',
  'w:specVanish', 'w:oMath', 'w:rPrChange',
];
const P_PR = [
  'w:pStyle', 'w:keepNext', 'w:keepLines', 'w:pageBreakBefore', 'w:framePr', 'w:widowControl', 'w:numPr',
  'w:suppressLineNumbers', 'w:pBdr', 'w:shd', 'w:tabs', 'w:suppressAutoHyphens', 'w:kinsoku', 'w:wordWrap',
  'w:overflowPunct', 'w:topLinePunct', 'w:autoSpaceDE', 'w:autoSpaceDN', 'w:bidi', 'w:adjustRightInd',
  'w:snapToGrid', 'w:spacing', 'w:ind', 'w:contextualSpacing', 'w:mirrorIndents', 'w:suppressOverlap', 'w:jc',
  'w:textDirection', 'w:textAlignment', 'w:textboxTightWrap', 'w:outlineLvl', 'w:divId', 'w:cnfStyle', 'w:rPr',
  'w:sectPr', 'w:pPrChange',
];
const TBL_PR = [
  'w:tblStyle', 'w:tblpPr', 'w:tblOverlap', 'w:bidiVisual', 'w:tblStyleRowBandSize', 'w:tblStyleColBandSize',
  'w:tblW', 'w:jc', 'w:tblCellSpacing', 'w:tblInd', 'w:tblBorders', 'w:shd', 'w:tblLayout', 'w:tblCellMar',
  'w:tblLook', 'w:tblCaption', 'w:tblDescription', 'w:tblPrChange',
];
const TBL_PR_EX = [
  'w:tblW', 'w:jc', 'w:tblCellSpacing', 'w:tblInd', 'w:tblBorders', 'w:shd', 'w:tblLayout', 'w:tblCellMar',
  'w:tblLook', 'w:tblPrExChange',
];
const TR_PR = [
  'w:cnfStyle', 'w:divId', 'w:gridBefore', 'w:gridAfter', 'w:wBefore', 'w:wAfter', 'w:cantSplit', 'w:trHeight',
  'w:tblHeader', 'w:tblCellSpacing', 'w:jc', 'w:hidden', 'w:ins', 'w:del', 'w:trPrChange',
];
const TC_PR = [
  'w:cnfStyle', 'w:tcW', 'w:gridSpan', 'w:hMerge', 'w:vMerge', 'w:tcBorders', 'w:shd', 'w:noWrap', 'w:tcMar',
  'w:textDirection', 'w:tcFitText', 'w:vAlign', 'w:hideMark', 'w:headers', 'w:cellIns', 'w:cellDel',
  'w:cellMerge', 'w:tcPrChange',
];
const SECT_PR = [
  'w:headerReference', 'w:footerReference', 'w:footnotePr', 'w:endnotePr', 'w:type', 'w:pgSz', 'w:pgMar',
  'w:paperSrc', 'w:pgBorders', 'w:lnNumType', 'w:pgNumType', 'w:cols', 'w:formProt', 'w:vAlign', 'w:noEndnote',
  'w:titlePg', 'w:textDirection', 'w:bidi', 'w:rtlGutter', 'w:docGrid', 'w:printerSettings', 'w:sectPrChange',
];
const NUM_PR = ['w:ilvl', 'w:numId', 'w:numberingChange', 'w:ins'];

/** Groups whose members may appear in any order among themselves (xsd:choice maxOccurs>1). */
const SAME_RANK: Record<string, string[]> = { 'w:sectPr': ['w:headerReference', 'w:footerReference'] };

const ORDERS: Record<string, ReadonlyMap<string, number>> = Object.fromEntries(
  Object.entries({
    'w:rPr': R_PR, 'w:pPr': P_PR, 'w:tblPr': TBL_PR, 'w:tblPrEx': TBL_PR_EX, 'w:trPr': TR_PR, 'w:tcPr': TC_PR,
    'w:sectPr': SECT_PR, 'w:numPr': NUM_PR,
  }).map(([k, v]) => {
    const ranks = new Map(v.map((n, i) => [n, i]));
    const group = SAME_RANK[k];
    if (group) for (const n of group) ranks.set(n, ranks.get(group[0]!)!);
    return [k, ranks];
  }),
);

/** A property child's place in its holder's schema order (undefined: not one the table knows). */
export function schemaRank(holderName: string, childName: string): number | undefined {
  return ORDERS[holderName]?.get(childName);
}

/**
 * Orders the children of a property element by the schema. Elements the table does not know
 * (extensions such as w14:*) stay right after the known element they followed.
 */
export function sortBySchema(holderName: string, children: XmlNode[]): XmlNode[] {
  const order = ORDERS[holderName];
  if (!order) return children;
  let last = -1;
  const ranked = children.map((c, i) => {
    const r = c.kind === 1 ? order.get(c.name) : undefined;
    if (r !== undefined) last = r;
    return { c, rank: r ?? last + 0.5, i };
  });
  ranked.sort((a, b) => a.rank - b.rank || a.i - b.i);
  return ranked.map((x) => x.c);
}

/** Inserts a property child at its schema position. */
export function insertProperty(holder: XmlElement, child: XmlElement): void {
  holder.setChildren(sortBySchema(holder.name, [...holder.children, child]));
}
