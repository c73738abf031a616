import { describe, expect, it } from 'vitest';
import { borderSpaces } from './paragraph-borders';
import { ParagraphSpacing } from './paragraph-spacing';
import type { ModelNode } from './annotate';

const STYLES = '<w:styles>' +
  '<w:style w:type="paragraph" w:styleId="Normal"><w:pPr><w:spacing w:after="160"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Title"><w:basedOn w:val="Normal"/><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="8" w:space="4" w:color="4F81BD"/></w:pBdr><w:spacing w:after="300"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Subtitle"><w:basedOn w:val="Title"/></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Plain"><w:basedOn w:val="Title"/><w:pPr><w:pBdr><w:bottom w:val="none" w:sz="0" w:space="0"/></w:pBdr></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Boxed"><w:pPr><w:pBdr><w:top w:val="single" w:sz="4" w:space="1"/><w:bottom w:val="single" w:sz="4"/></w:pBdr></w:pPr></w:style>' +
  '</w:styles>';

describe('paragraph borders', () => {
  it('reads each paragraph style\'s top and bottom border space, through the styles it is based on, and a border taken off', () => {
    const spaces = borderSpaces(STYLES);
    expect(spaces.get('Title')).toEqual({ bottom: 4 });
    expect(spaces.get('Subtitle')).toEqual({ bottom: 4 });
    expect(spaces.has('Plain')).toBe(false);
    expect(spaces.has('Normal')).toBe(false);
    expect(spaces.get('Boxed')).toEqual({ top: 1, bottom: 0 });
  });

  it('keeps a bordered side\'s spacing outside the border (a margin) and puts the border\'s space inside it', () => {
    const values: Record<string, string> = { 'margin-top': '0pt', 'margin-bottom': '15pt', 'border-bottom': '1pt solid #4F81BD' };
    const style = { id: 'Title', target: 'p', styles: [{ target: 'p', values }] };
    new ParagraphSpacing(() => 1.15, {}, new Set(), borderSpaces(STYLES)).rewriteStyles([style]);
    expect(values).toMatchObject({ 'margin-bottom': '15pt', 'padding-bottom': '4pt', 'padding-top': '0pt' });
    expect(values['margin-top']).toBeUndefined();
  });

  it('marks a paragraph of a bordered style, whose own spacing on that side stays a margin', () => {
    const p: ModelNode = { type: 'paragraph', styleName: 'Title', cssStyle: { 'margin-top': '6pt', 'margin-bottom': '3pt' }, children: [] };
    new ParagraphSpacing(() => 1.15, {}, new Set(), borderSpaces(STYLES)).rewriteTree({ type: 'body', children: [p] });
    expect(p.className).toBe('rl-bordered-bottom');
    expect(p.cssStyle).toEqual({ 'padding-top': '6pt', 'margin-bottom': '3pt' });
  });
});
