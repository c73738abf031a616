/**
 * Stand-ins for the fonts a draft names when the reader's machine lacks them. docx-preview writes
 * `font-family: <Word's name>` with no fallback, so a missing font becomes the browser's default
 * (a serif), whatever the font was: a sans-serif body set in Times takes a fifth fewer lines, and
 * the pages break elsewhere. Chromium already replaces Arial, Times New Roman, Courier New, Calibri
 * and Cambria by their metric-compatible twins (Liberation, Carlito, Caladea) when they are
 * installed; any other font gets an @font-face of its own name whose source is the font itself
 * when installed, else a stand-in of its kind: one known for its widths, else one by the class
 * the draft's font table gives it (w:family: swiss, roman, modern).
 */

/** Fonts whose stand-in is known by name (close in widths), lower case. */
const BY_NAME: Record<string, string> = {
  verdana: 'DejaVu Sans',
  tahoma: 'DejaVu Sans',
  georgia: 'DejaVu Serif',
  'arial narrow': 'Liberation Sans Narrow',
  helvetica: 'Liberation Sans',
  'helvetica neue': 'Liberation Sans',
  'segoe ui': 'Liberation Sans',
  aptos: 'Liberation Sans',
  inter: 'DejaVu Sans',
  'calibri light': 'Carlito',
  garamond: 'Liberation Serif',
  'book antiqua': 'Liberation Serif',
  'palatino linotype': 'Liberation Serif',
  'century schoolbook': 'Liberation Serif',
  consolas: 'Liberation Mono',
  'lucida console': 'Liberation Mono',
  // Wider than Liberation Sans, narrower than DejaVu Sans: Word's own page breaks in a document set
  // in it (the corpus's stress023) fall between Liberation Sans's and this one's, and with this one
  // the pages are Word's 15 (Liberation Sans: 14).
  'franklin gothic book': 'DejaVu Sans Condensed',
  // Windows' Arabic and Hebrew fonts (a run's complex-script font, w:rFonts/@w:cs, drawn by the render
  // variant): DejaVu Sans has both scripts, and is LibreOffice's fallback for them too.
  'traditional arabic': 'DejaVu Sans',
  'simplified arabic': 'DejaVu Sans',
  'arabic typesetting': 'DejaVu Sans',
  'sakkal majalla': 'DejaVu Sans',
  andalus: 'DejaVu Sans',
  david: 'DejaVu Sans',
  miriam: 'DejaVu Sans',
  narkisim: 'DejaVu Sans',
};

/** Stand-ins by w:family. */
const BY_CLASS: Record<string, string> = {
  swiss: 'Liberation Sans',
  roman: 'Liberation Serif',
  modern: 'Liberation Mono',
};

/** Replaced by the browser itself (metric-compatible twins). */
const REPLACED = new Set(['arial', 'times new roman', 'courier new', 'calibri', 'cambria', 'liberation sans', 'liberation serif', 'liberation mono', 'carlito', 'caladea']);

export interface FontEntry {
  name?: string;
  family?: string;
}

const FACES = [
  { weight: 'normal', style: 'normal', suffix: '' },
  { weight: 'bold', style: 'normal', suffix: ' Bold' },
  { weight: 'normal', style: 'italic', suffix: ' Italic' },
  { weight: 'bold', style: 'italic', suffix: ' Bold Italic' },
] as const;

const quote = (name: string) => `"${name.replace(/["\\]/g, '')}"`;

/** The stand-in for a font of the draft's font table, or null (replaced by the browser, or of no known kind). */
export function standIn(font: FontEntry): string | null {
  const name = font.name?.trim();
  if (!name || REPLACED.has(name.toLowerCase())) return null;
  return BY_NAME[name.toLowerCase()] ?? (font.family ? BY_CLASS[font.family] : undefined) ?? null;
}

/** @font-face rules giving each font of the table its stand-in when the machine lacks it. */
export function fontStandInCss(fonts: readonly FontEntry[]): string {
  const rules: string[] = [];
  for (const font of fonts) {
    const sub = standIn(font);
    if (!sub) continue;
    const name = font.name!.trim();
    for (const face of FACES) {
      rules.push(`@font-face { font-family: ${quote(name)}; font-weight: ${face.weight}; font-style: ${face.style}; src: local(${quote(name + face.suffix)}), local(${quote(sub + face.suffix)}); }`);
    }
  }
  return rules.join('\n');
}
