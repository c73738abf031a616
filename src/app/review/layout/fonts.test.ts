import { describe, expect, it } from 'vitest';
import { fontStandInCss, standIn } from './fonts';

describe('font stand-ins', () => {
  it('leaves to the browser the fonts it replaces by metric-compatible twins', () => {
    for (const name of ['Calibri', 'Cambria', 'Arial', 'Times New Roman', 'Courier New']) expect(standIn({ name, family: 'swiss' })).toBeNull();
  });

  it('stands a missing font in by its kind from the font table, or by a twin of close widths', () => {
    expect(standIn({ name: 'Gill Sans MT', family: 'swiss' })).toBe('Liberation Sans');
    expect(standIn({ name: 'Franklin Gothic Book', family: 'swiss' })).toBe('DejaVu Sans Condensed');
    expect(standIn({ name: 'Bookman Old Style', family: 'roman' })).toBe('Liberation Serif');
    expect(standIn({ name: 'Consolas', family: 'modern' })).toBe('Liberation Mono');
    expect(standIn({ name: 'Verdana', family: 'swiss' })).toBe('DejaVu Sans');
    // Named by a style, not in the font table: known by its name only.
    expect(standIn({ name: 'Inter' })).toBe('DejaVu Sans');
    // An Arabic or Hebrew font (of no class in the table): one that has the script's glyphs.
    expect(standIn({ name: 'Traditional Arabic', family: 'auto' })).toBe('DejaVu Sans');
    expect(standIn({ name: 'David', family: 'swiss' })).toBe('DejaVu Sans');
    expect(standIn({ name: 'Wingdings', family: 'auto' })).toBeNull();
    expect(standIn({ family: 'swiss' })).toBeNull();
  });

  it('names the font itself first, so a machine that has it uses it, in each of its four faces', () => {
    const css = fontStandInCss([{ name: 'Gill Sans MT', family: 'swiss' }, { name: 'Calibri', family: 'swiss' }]);
    expect(css.match(/@font-face/g)).toHaveLength(4);
    expect(css).toContain('font-family: "Gill Sans MT"; font-weight: normal; font-style: normal; src: local("Gill Sans MT"), local("Liberation Sans");');
    expect(css).toContain('font-weight: bold; font-style: italic; src: local("Gill Sans MT Bold Italic"), local("Liberation Sans Bold Italic");');
    expect(css).not.toContain('Calibri');
  });
});
