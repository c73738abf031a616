import type { XmlElement } from '../xml/tree';

/**
 * What a property change did, in Word's words ("Formatted: Bold, not Italic"; "Formatted: Indent:
 * Left 0.5 in"), from the properties now against those the change recorded (w:rPrChange,
 * w:pPrChange hold the properties before). Shown on the words and paragraphs they changed.
 */

const TOGGLES: readonly [string, string][] = [
  ['w:b', 'Bold'], ['w:i', 'Italic'], ['w:u', 'Underline'], ['w:strike', 'Strikethrough'], ['w:dstrike', 'Double strikethrough'],
  ['w:caps', 'All caps'], ['w:smallCaps', 'Small caps'], ['w:vanish', 'Hidden'], ['w:emboss', 'Emboss'], ['w:outline', 'Outline'], ['w:shadow', 'Shadow'],
];

function toggleOn(props: XmlElement | null, name: string): boolean {
  const el = props?.first(name);
  if (!el) return false;
  const val = el.attr('w:val');
  if (name === 'w:u') return val !== 'none';
  return val === null || !['false', '0', 'off'].includes(val);
}

const attrOf = (props: XmlElement | null, name: string, attr = 'w:val') => props?.first(name)?.attr(attr) ?? null;

const twipsToInches = (twips: string | null) => `${(Number(twips ?? 0) / 1440).toFixed(2).replace(/\.?0+$/, '')} in`;

export function describeRunChange(now: XmlElement | null, before: XmlElement | null): string {
  const out: string[] = [];
  for (const [name, label] of TOGGLES) {
    const a = toggleOn(now, name);
    if (a !== toggleOn(before, name)) out.push(a ? label : `not ${label}`);
  }
  const size = attrOf(now, 'w:sz');
  if (size !== attrOf(before, 'w:sz')) out.push(`Font size: ${size ? `${Number(size) / 2} pt` : 'default'}`);
  const font = attrOf(now, 'w:rFonts', 'w:ascii');
  if (font !== attrOf(before, 'w:rFonts', 'w:ascii')) out.push(`Font: ${font ?? 'default'}`);
  const color = attrOf(now, 'w:color');
  if (color !== attrOf(before, 'w:color')) out.push(`Font color: ${!color || color === 'auto' ? 'Auto' : `#${color}`}`);
  const highlight = attrOf(now, 'w:highlight');
  if (highlight !== attrOf(before, 'w:highlight')) out.push(highlight && highlight !== 'none' ? `Highlight: ${highlight}` : 'not Highlight');
  const vert = attrOf(now, 'w:vertAlign');
  if (vert !== attrOf(before, 'w:vertAlign')) out.push(vert === 'superscript' ? 'Superscript' : vert === 'subscript' ? 'Subscript' : 'not Superscript/Subscript');
  const style = attrOf(now, 'w:rStyle');
  if (style !== attrOf(before, 'w:rStyle')) out.push(`Style: ${style ?? 'Default Paragraph Font'}`);
  return out.length ? `Formatted: ${out.join(', ')}` : 'Formatted';
}

const JC: Record<string, string> = { left: 'Left', start: 'Left', right: 'Right', end: 'Right', center: 'Centered', both: 'Justified', distribute: 'Distributed' };

export function describeParagraphChange(now: XmlElement | null, before: XmlElement | null): string {
  const out: string[] = [];
  const style = attrOf(now, 'w:pStyle');
  if (style !== attrOf(before, 'w:pStyle')) out.push(`Style: ${style ?? 'Normal'}`);
  const indents: string[] = [];
  for (const [attr, label] of [['w:left', 'Left'], ['w:start', 'Left'], ['w:right', 'Right'], ['w:end', 'Right'], ['w:hanging', 'Hanging'], ['w:firstLine', 'First line']] as const) {
    const v = attrOf(now, 'w:ind', attr);
    if (v !== attrOf(before, 'w:ind', attr)) indents.push(`${label} ${twipsToInches(v)}`);
  }
  if (indents.length) out.push(`Indent: ${indents.join(', ')}`);
  const jc = attrOf(now, 'w:jc');
  if (jc !== attrOf(before, 'w:jc')) out.push(JC[jc ?? 'left'] ?? jc ?? 'Left');
  const spacing: string[] = [];
  for (const [attr, label] of [['w:before', 'Before'], ['w:after', 'After']] as const) {
    const v = attrOf(now, 'w:spacing', attr);
    if (v !== attrOf(before, 'w:spacing', attr)) spacing.push(`${label}: ${Number(v ?? 0) / 20} pt`);
  }
  const line = attrOf(now, 'w:spacing', 'w:line');
  if (line !== attrOf(before, 'w:spacing', 'w:line')) spacing.push(`Line spacing: ${line ? `${(Number(line) / 240).toFixed(2).replace(/\.?0+$/, '')} lines` : 'single'}`);
  if (spacing.length) out.push(`Space ${spacing.join(', ')}`);
  for (const [name, label] of [['w:keepNext', 'Keep with next'], ['w:keepLines', 'Keep lines together'], ['w:pageBreakBefore', 'Page break before']] as const) {
    const a = toggleOn(now, name);
    if (a !== toggleOn(before, name)) out.push(a ? label : `not ${label}`);
  }
  const numbered = now?.first('w:numPr') != null;
  if (numbered !== (before?.first('w:numPr') != null)) out.push(numbered ? 'Numbered' : 'not Numbered');
  else if (attrOf(now?.first('w:numPr') ?? null, 'w:ilvl') !== attrOf(before?.first('w:numPr') ?? null, 'w:ilvl')) out.push(`List level ${Number(attrOf(now?.first('w:numPr') ?? null, 'w:ilvl') ?? 0) + 1}`);
  return out.length ? `Formatted: ${out.join(', ')}` : 'Formatted';
}
