import type { ModelNode, WordModel } from './annotate';

/**
 * Word's "single" line (w:spacing w:lineRule="auto", w:line="240") is the font's own line height
 * (ascent + descent + gap: 1.22 em for Calibri), while docx-preview writes `line-height: 1.00`, one
 * em: every line a fifth too short, and pages that hold a fifth too much. Auto line heights are
 * scaled by the natural line height of the document's body font (the default run font).
 */
const NATURAL_LINE: Record<string, number> = {
  calibri: 1.2207,
  'calibri light': 1.2207,
  cambria: 1.1719,
  'times new roman': 1.1499,
  arial: 1.1499,
  'arial narrow': 1.1499,
  helvetica: 1.1499,
  georgia: 1.1362,
  verdana: 1.2153,
  tahoma: 1.2075,
  'segoe ui': 1.3301,
  garamond: 1.1226,
  'book antiqua': 1.1704,
  'century gothic': 1.2251,
  aptos: 1.2,
  'courier new': 1.1328,
};
const DEFAULT_NATURAL_LINE = 1.15;

interface StyleValues {
  values?: Record<string, string>;
}
interface ThemeModel {
  themePart?: { theme?: { fontScheme?: { minorFont?: { latinTypeface?: string }; majorFont?: { latinTypeface?: string } } } };
  stylesPart?: { styles: { id?: string | null; styles?: StyleValues[] }[] };
  documentPart: unknown;
}

function bodyFont(doc: ThemeModel): string | undefined {
  const defaults = doc.stylesPart?.styles.find((s) => s.id === null);
  const family = defaults?.styles?.map((s) => s.values?.['font-family']).find(Boolean);
  const scheme = doc.themePart?.theme?.fontScheme;
  if (!family || family.includes('minor')) return scheme?.minorFont?.latinTypeface;
  if (family.includes('major')) return scheme?.majorFont?.latinTypeface;
  return family.split(',')[0]?.replace(/['"]/g, '').trim();
}

/** A unitless CSS line height (docx-preview's auto spacing), scaled. */
function scaled(value: unknown, factor: number): string | null {
  return typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? (Number(value) * factor).toFixed(3) : null;
}

/** Scales the styles' auto line heights now; answers the function that scales a part's (each part once). */
export function autoLineScaler(doc: WordModel): (root: ModelNode) => void {
  const model = doc as unknown as ThemeModel;
  const factor = NATURAL_LINE[bodyFont(model)?.toLowerCase() ?? ''] ?? DEFAULT_NATURAL_LINE;
  for (const style of model.stylesPart?.styles ?? []) {
    for (const target of style.styles ?? []) {
      const v = scaled(target.values?.['line-height'], factor);
      if (v && target.values) target.values['line-height'] = v;
    }
  }
  const done = new WeakSet<ModelNode>();
  const visit = (node: ModelNode) => {
    const css = node.cssStyle as Record<string, string> | undefined;
    const v = css ? scaled(css['line-height'], factor) : null;
    if (v && css) css['line-height'] = v;
    for (const child of node.children ?? []) visit(child);
  };
  return (root) => {
    if (done.has(root)) return;
    done.add(root);
    visit(root);
  };
}
