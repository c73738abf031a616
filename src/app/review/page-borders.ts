/**
 * A section's page border (w:pgBorders, which docx-preview 0.4.1 parses into the section's
 * `pageBorders` but never draws) as CSS for each laid-out page of that section: an outline
 * inset from the page's edge by the border's distance (w:space). Word's dialog measures from the
 * page edge (offsetFrom="page"), which docx-preview does not parse, so a border measured from the
 * text is drawn from the edge too. One outline for the four sides: Word files almost always set
 * them alike; the top side (else the first set) decides. The page colour (w:background) needs
 * nothing here: docx-preview puts it on each page element, which the layout copies.
 */
interface Border {
  type?: string;
  color?: string;
  size?: string;
  offset?: string;
}

const STYLE: Record<string, string> = { single: 'solid', thick: 'solid', double: 'double', dotted: 'dotted', dashed: 'dashed', dashSmallGap: 'dashed', dotDash: 'dashed', dotDotDash: 'dotted', triple: 'double', wave: 'solid' };

export function pageBorderStyle(sect: { readonly [key: string]: unknown } | undefined): { outline: string; outlineOffset: string } | null {
  const borders = (sect?.["pageBorders"] ?? null) as Partial<Record<'top' | 'left' | 'bottom' | 'right', Border>> | null;
  const side = borders && (borders.top ?? borders.left ?? borders.bottom ?? borders.right);
  if (!side?.type || side.type === 'none' || side.type === 'nil') return null;
  const color = !side.color || side.color === 'auto' ? '#000' : /^[0-9a-f]{6}$/i.test(side.color) ? `#${side.color}` : side.color;
  const width = side.size && side.size !== '0pt' ? side.size : '1px';
  return { outline: `${width} ${STYLE[side.type] ?? 'solid'} ${color}`, outlineOffset: `calc(-1 * ${side.offset ?? '24pt'} - ${width})` };
}
