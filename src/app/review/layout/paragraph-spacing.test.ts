import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ModelNode } from './annotate';
import { baseRules, contextualStyles, firstFamily, ParagraphSpacing, spacingClass, spacingOf, spacingProperties } from './paragraph-spacing';

const natural = (family: string | null) => (family === 'Calibri' ? 1.2207 : family === 'Arial' ? 1.149 : 1.15);

describe('line spacing as Word computes it', () => {
  it('reads the three forms docx-preview writes: auto (a multiple), atLeast (calc), exact (points)', () => {
    expect(spacingOf('1.50')).toEqual({ line: 1.5 });
    expect(spacingOf('calc(100% + 12pt)')).toEqual({ line: 1, least: 12 });
    expect(spacingOf('13.5pt')).toEqual({ exact: 13.5 });
    expect(spacingOf('normal')).toBeNull();
    expect(spacingOf(undefined)).toBeNull();
  });

  it('always sets all three properties, so a paragraph never inherits another rule\'s exact or minimum', () => {
    fc.assert(fc.property(fc.oneof(
      fc.record({ line: fc.double({ min: 0.5, max: 5, noNaN: true }) }),
      fc.record({ line: fc.constant(1), least: fc.double({ min: 0, max: 100, noNaN: true }) }),
      fc.record({ exact: fc.double({ min: 1, max: 100, noNaN: true }) }),
    ), (s) => {
      expect(Object.keys(spacingProperties(s)).sort()).toEqual(['--rl-exact', '--rl-least', '--rl-line']);
      expect(spacingClass(s)).toMatch(/^rl-ls-[alx]m?\d+$/);
    }));
    expect(spacingProperties({ line: 1.5 })['--rl-exact']).toBe('initial');
    expect(spacingProperties({ exact: 12 })['--rl-exact']).toBe('12pt');
  });

  it('finds a font-family list\'s first family, theme fonts resolved', () => {
    expect(firstFamily("'Franklin Gothic Book', 'SimSun'", {})).toBe('Franklin Gothic Book');
    expect(firstFamily('var(--docx-minorHAnsi-font)', { minor: 'Calibri' })).toBe('Calibri');
    expect(firstFamily('var(--docx-majorHAnsi-font), Arial', { major: 'Cambria' })).toBe('Cambria');
  });

  it('rewrites styles: spacing as properties, the font\'s natural line beside it, the paragraph style\'s font on the paragraph itself', () => {
    const styles: { target: string | null; styles: { target: string; values: Record<string, string> }[] }[] = [
      { target: null, styles: [{ target: 'span', values: { 'font-family': 'var(--docx-minorHAnsi-font)', 'font-size': '11pt', 'min-height': '11pt' } }, { target: 'p', values: { 'line-height': '1.08', 'margin-bottom': '8pt' } }] },
      { target: 'p', styles: [{ target: 'p', values: { 'line-height': '12pt', 'min-height': '12pt' } }, { target: 'span', values: { 'font-family': "'Arial'", 'text-decoration': 'underline' } }] },
    ];
    const spacing = new ParagraphSpacing(natural, { minor: 'Calibri' });
    spacing.rewriteStyles(styles);
    const [defaults, heading] = styles;
    expect(defaults!.styles[1]!.values).toEqual({ 'padding-bottom': '8pt', '--rl-line': '1.08', '--rl-least': '0pt', '--rl-exact': 'initial', 'font-family': 'var(--docx-minorHAnsi-font)', 'font-size': '11pt', '--rl-natural': '1.2207' });
    expect(heading!.styles[0]!.values).toEqual({ '--rl-exact': '12pt', '--rl-line': '1', '--rl-least': '0pt', 'font-family': "'Arial'", '--rl-natural': '1.149' });
    // The run's decoration stays on the runs.
    expect(heading!.styles[1]!.values['text-decoration']).toBe('underline');
  });

  it('gives a paragraph with its own spacing, and a run with its own font, a class whose rule sets them', () => {
    const run: ModelNode = { type: 'run', cssStyle: { 'font-family': "'Arial'" }, children: [] };
    const paragraph: ModelNode = { type: 'paragraph', cssStyle: { 'line-height': 'calc(100% + 6pt)' }, children: [run] };
    const spacing = new ParagraphSpacing(natural, {});
    spacing.rewriteTree({ type: 'body', children: [paragraph] });
    expect(paragraph.cssStyle).toEqual({});
    expect(paragraph.className).toBe('rl-ls-l600');
    expect(run.className).toBe('rl-nat-0');
    const css = spacing.css();
    expect(css).toContain('.docx-wrapper p.rl-ls-l600 { --rl-exact: initial; --rl-line: 1; --rl-least: 6pt; }');
    expect(css).toContain('.docx-wrapper .rl-nat-0 { --rl-natural: 1.149; }');
    expect(css).toContain(baseRules(1.15));
  });

  it('writes space after and space before as padding (the layout keeps the larger between two paragraphs: spacing-collapse.ts)', () => {
    const paragraph: ModelNode = { type: 'paragraph', cssStyle: { 'margin-top': '12pt', 'margin-bottom': '6pt', 'margin-inline-start': '36pt' }, children: [] };
    new ParagraphSpacing(natural, {}).rewriteTree({ type: 'body', children: [paragraph] });
    expect(paragraph.cssStyle).toEqual({ 'padding-top': '12pt', 'padding-bottom': '6pt', 'margin-inline-start': '36pt' });
  });

  it('gives an empty paragraph one line plus its space before and after (the minimum height of the content box, not the border box)', () => {
    const rule = baseRules(1.15).split('\n').find((r) => r.startsWith('.docx-wrapper .docx p {'));
    expect(rule).toContain('min-height:');
    // Tailwind's preflight sets border-box on everything: the paragraph's padding is its space before and after.
    expect(rule).toContain('box-sizing: content-box');
  });

  it('finds the paragraph styles with contextual spacing, through the styles they are based on', () => {
    const xml = '<w:styles>' +
      '<w:style w:type="paragraph" w:styleId="Normal"><w:pPr><w:spacing w:after="160"/></w:pPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="720"/><w:contextualSpacing/></w:pPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="ListBullet2"><w:basedOn w:val="ListParagraph"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Off"><w:basedOn w:val="ListParagraph"/><w:pPr><w:contextualSpacing w:val="0"/></w:pPr></w:style>' +
      '<w:style w:type="character" w:styleId="Strong"><w:rPr><w:b/></w:rPr></w:style>' +
      '</w:styles>';
    expect(contextualStyles(xml)).toEqual(['ListParagraph', 'ListBullet2']);
  });

  it('drops the space between two neighbouring paragraphs of a contextual style, not between others', () => {
    const para = (styleName: string): ModelNode => ({ type: 'paragraph', styleName, cssStyle: {}, children: [] });
    const [a, b, c, d] = [para('ListParagraph'), para('ListParagraph'), para('Normal'), para('ListParagraph')];
    new ParagraphSpacing(natural, {}, new Set(['ListParagraph'])).rewriteTree({ type: 'body', children: [a, b, c, d] });
    expect([a.className, b.className, c.className, d.className]).toEqual(['rl-ctx-after', 'rl-ctx-before', undefined, undefined]);
  });

  it('takes a paragraph that names no style as of the default paragraph style (its contextual spacing too)', () => {
    const spacing = new ParagraphSpacing(natural, {}, new Set(['Normal']));
    spacing.rewriteStyles([{ id: 'Normal', isDefault: true, target: 'p', styles: [] }]);
    const para = (styleName?: string): ModelNode => ({ type: 'paragraph', styleName, cssStyle: {}, children: [] });
    const [a, b, c] = [para(), para('Normal'), para('Heading1')];
    spacing.rewriteTree({ type: 'body', children: [a, b, c] });
    expect([a.className, b.className, c.className]).toEqual(['rl-ctx-after', 'rl-ctx-before', undefined]);
  });
});
