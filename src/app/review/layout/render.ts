import type * as DocxPreview from 'docx-preview';
import { resolveNoteImages } from './note-images';
import { annotateHeaderFooter, annotateModel, type ModelNode, type SectionProps, type WordModel } from './annotate';
import { contextualStyles, firstFamily, ParagraphSpacing } from './paragraph-spacing';
import { measureNaturalLines } from './font-metrics';
import { borderSpaces, type BorderSpace } from './paragraph-borders';
import { ANCHOR_CSS, placeAnchors, unfloatNarrowTables } from './anchors';
import { showObjects } from './objects';
import { fontStandInCss, type FontEntry } from './fonts';
import { DEFAULT_NOTE_NUMBERING, readNoteNumbering } from './notes';
import { paginate, type PageContext, type Slicer } from './paginate';
import { showObjects as showMarkedObjects } from '../objects';

/** docx-preview is loaded on first use: it is bigger than the whole sign-in route. */
let docxPreview: Promise<typeof DocxPreview> | null = null;
export function loadDocxPreview(): Promise<typeof DocxPreview> {
  docxPreview ??= import('docx-preview');
  return docxPreview;
}

const RENDER_OPTIONS = {
  className: 'docx',
  inWrapper: true,
  breakPages: true,
  // Pages are laid out by measure (paginate.ts), not from the breaks Word saved.
  ignoreLastRenderedPageBreak: true,
  renderComments: false,
  renderHeaders: false,
  renderFooters: false,
  renderFootnotes: true,
  renderEndnotes: true,
  useBase64URL: false,
  experimental: false,
} as const;

export interface RenderedDraft {
  /** docx-preview's styles. */
  styles: HTMLElement;
  /** The draft, one <section> per run of text between explicit breaks, until `layOut` is called. */
  body: HTMLElement;
  /**
   * Lays the body out in pages, in slices as `slicer` says; the body must be in the document.
   * Answers the number of pages, or null when the slicer gave up on it.
   */
  layOut(slicer?: Slicer): Promise<number | null>;
  /** ms spent parsing, rendering the body, drawing objects, rendering headers and footers (read by benchmarks). */
  phases: number[];
}

/**
 * Renders a draft with docx-preview and prepares its page layout: the model is annotated for
 * the layout (annotate.ts), the body rendered without headers and footers, and each header and
 * footer the sections refer to rendered once, as a template the layout copies onto its pages.
 */
export async function renderDraft(bytes: Uint8Array, renderChanges: boolean): Promise<RenderedDraft> {
  const { parseAsync, renderDocument } = await loadDocxPreview();
  const options = { ...RENDER_OPTIONS, renderChanges };
  const t0 = performance.now();
  const doc = (await parseAsync(bytes, options)) as WordModel;
  const t1 = performance.now();
  const sections = annotateModel(doc);
  resolveNoteImages(doc);
  await placeBodyAnchors(doc, sections[sections.length - 1] ?? {});
  const fonts = (doc as { fontTablePart?: { fonts?: FontEntry[] } }).fontTablePart?.fonts ?? [];
  const named = namedFamilies(doc, fonts);
  // A font the styles name that the font table does not list gets a stand-in by its name too.
  const standIns = fontStandInCss([...fonts, ...[...named.families].filter((name) => !fonts.some((f) => f.name === name)).map((name) => ({ name }))]);
  const stylesPath = (doc.stylesPart as { path?: string } | undefined)?.path;
  const stylesXml = stylesPath ? await packageOf(doc)?.load(stylesPath, 'string') : null;
  const spacing = await lineSpacingOf(doc, named, standIns, new Set(stylesXml ? contextualStyles(stylesXml) : []), stylesXml ? borderSpaces(stylesXml) : new Map());
  for (const root of [doc.documentPart.body, ...(doc.footnotesPart?.notes ?? []), ...(doc.endnotesPart?.notes ?? [])]) spacing.rewriteTree(root);
  const styles = document.createElement('div');
  const body = document.createElement('div');
  for (const node of await renderDocument(doc, options)) (node.nodeName === 'STYLE' ? styles : body).appendChild(node);
  if (standIns) styles.appendChild(Object.assign(document.createElement('style'), { textContent: standIns }));
  const t2 = performance.now();
  await showObjects(body, (relId) => loadChart(doc, relId));
  const t3 = performance.now();
  const headerFooter = await renderHeadersAndFooters(doc, sections, renderDocument, options, (root) => spacing.rewriteTree(root));
  // Before docx-preview's own rules: the document's styles win over Word's defaults in it.
  styles.prepend(Object.assign(document.createElement('style'), { textContent: `${spacing.css()}\n${ANCHOR_CSS}` }));
  const phases = [t1 - t0, t2 - t1, t3 - t2, performance.now() - t3];
  const settings = doc.settingsPart?.settings;
  // Restarts and starts of note numbers are read from the XML itself (docx-preview reads only the format).
  const pkg = packageOf(doc);
  const notes = (doc.footnotesPart || doc.endnotesPart) && pkg ? readNoteNumbering(await pkg.load('word/settings.xml', 'string'), await pkg.load('word/document.xml', 'string')) : DEFAULT_NOTE_NUMBERING;
  const ctx: PageContext = {
    sections,
    headerFooter,
    evenAndOddHeaders: settings?.evenAndOddHeaders ?? false,
    notes: {
      ...notes,
      footnote: { format: settings?.footnoteProps?.nummeringFormat, ...notes.footnote },
      endnote: { format: settings?.endnoteProps?.nummeringFormat, ...notes.endnote },
    },
  };
  return {
    styles,
    body,
    phases,
    layOut: (slicer) => {
      const wrapper = body.querySelector<HTMLElement>(':scope > .docx-wrapper');
      return wrapper ? paginate(wrapper, ctx, slicer) : Promise.resolve(0);
    },
  };
}

interface FontModel {
  themePart?: { theme?: { fontScheme?: { minorFont?: { latinTypeface?: string }; majorFont?: { latinTypeface?: string } } } };
  numberingPart?: { domNumberings?: { pStyle?: Record<string, string>; rStyle?: Record<string, string> }[] };
  stylesPart?: { styles: { target?: string | null; styles?: { target?: string | null; values?: Record<string, string> }[] }[] };
}

/** The fonts a draft names: its font table's, its theme's and its styles' (first of each list, theme fonts resolved). */
function namedFamilies(doc: WordModel, fonts: readonly FontEntry[]): { families: Set<string>; theme: { minor?: string; major?: string } } {
  const model = doc as unknown as FontModel;
  const scheme = model.themePart?.theme?.fontScheme;
  const theme = { minor: scheme?.minorFont?.latinTypeface, major: scheme?.majorFont?.latinTypeface };
  const families = new Set<string>(['Times New Roman']);
  for (const f of fonts) if (f.name) families.add(f.name);
  if (theme.minor) families.add(theme.minor);
  if (theme.major) families.add(theme.major);
  for (const style of model.stylesPart?.styles ?? []) {
    for (const target of style.styles ?? []) {
      const family = target.values?.['font-family'] ? firstFamily(target.values['font-family'], theme) : null;
      if (family) families.add(family);
    }
  }
  return { families, theme };
}

/**
 * Word's line spacing for the draft (paragraph-spacing.ts): the fonts it names measured as the browser
 * draws them, its styles rewritten now (the model's parts as they are rendered).
 */
async function lineSpacingOf(doc: WordModel, { families, theme }: ReturnType<typeof namedFamilies>, faceCss: string, contextual: ReadonlySet<string>, bordered: ReadonlyMap<string, BorderSpace>): Promise<ParagraphSpacing> {
  const model = doc as unknown as FontModel;
  const spacing = new ParagraphSpacing(await measureNaturalLines(families, faceCss), theme, contextual, bordered);
  spacing.rewriteStyles(model.stylesPart?.styles ?? []);
  spacing.rewriteNumbering(model.numberingPart?.domNumberings ?? []);
  return spacing;
}

/** pt as docx-preview writes lengths ("72.00pt") in px. */
const ptToPx = (v: unknown) => (typeof v === 'string' && v.endsWith('pt') ? (parseFloat(v) * 4) / 3 : NaN);

/** The main part's floating drawings and tables placed as their wrapping says (anchors.ts), in the text column of the body's section. */
async function placeBodyAnchors(doc: WordModel, sect: SectionProps): Promise<void> {
  const path = (doc.documentPart as { path?: string }).path;
  const size = sect.pageSize as { width?: string } | undefined;
  const margins = sect.pageMargins as { left?: string; right?: string } | undefined;
  const marginLeft = ptToPx(margins?.left) || 96;
  const column = (ptToPx(size?.width) || 816) - marginLeft - (ptToPx(margins?.right) || 96);
  unfloatNarrowTables(doc.documentPart.body, column);
  const xml = path ? await packageOf(doc)?.load(path, 'string') : null;
  if (xml && xml.includes('<wp:anchor')) placeAnchors(doc.documentPart.body, xml, marginLeft, column);
}

interface Package {
  load(path: string, type: 'string'): Promise<string | null>;
}

/** The .docx package docx-preview keeps on its model (its parts by path). */
function packageOf(doc: WordModel): Package | undefined {
  return (doc as unknown as { _package?: Package })._package;
}

/** A chart part of the main part, by relationship id. */
function loadChart(doc: WordModel, relId: string): Promise<string | null> {
  const rel = (doc.documentPart as { rels?: { id: string; target: string }[] }).rels?.find((r) => r.id === relId);
  const pkg = packageOf(doc);
  if (!rel || !pkg) return Promise.resolve(null);
  const path = rel.target.startsWith('/') ? rel.target.slice(1) : `word/${rel.target}`;
  return pkg.load(path, 'string');
}

/**
 * Each header and footer of each section, rendered by docx-preview as the header of a page of
 * its own: the body is swapped for one empty paragraph per reference, whose section has just
 * that reference as its default.
 */
async function renderHeadersAndFooters(
  doc: WordModel,
  sections: readonly SectionProps[],
  renderDocument: typeof DocxPreview.renderDocument,
  options: typeof RENDER_OPTIONS & { renderChanges: boolean },
  rewriteLines: (root: ModelNode) => void,
): Promise<Map<string, HTMLElement>> {
  const keys: string[] = [];
  const paragraphs: ModelNode[] = [];
  sections.forEach((sect, s) => {
    for (const kind of ['header', 'footer'] as const) {
      for (const ref of (kind === 'header' ? sect.headerRefs : sect.footerRefs) ?? []) {
        const part = doc.findPartByRelId(ref.id, doc.documentPart);
        if (!part) continue;
        annotateHeaderFooter(part.rootElement);
        rewriteLines(part.rootElement);
        const only = [{ id: ref.id, type: 'default' }];
        keys.push(`${s}|${kind}|${ref.type}`);
        paragraphs.push({ type: 'paragraph', children: [], sectionProps: { ...sect, titlePage: false, headerRefs: kind === 'header' ? only : [], footerRefs: kind === 'footer' ? only : [] } });
      }
    }
  });
  const out = new Map<string, HTMLElement>();
  if (paragraphs.length === 0) return out;
  const body = doc.documentPart.body;
  const saved = body.children;
  body.children = paragraphs;
  let nodes: Node[];
  try {
    nodes = await renderDocument(doc, { ...options, renderHeaders: true, renderFooters: true, renderFootnotes: false, renderEndnotes: false });
  } finally {
    body.children = saved;
  }
  const wrapper = nodes.find((n): n is HTMLElement => n instanceof HTMLElement && n.classList.contains('docx-wrapper'));
  const pages = wrapper ? [...wrapper.children] : [];
  keys.forEach((key, i) => {
    const el = pages[i]?.querySelector<HTMLElement>(key.includes('|header|') ? ':scope > header' : ':scope > footer');
    if (!el) return;
    // Its watermark and objects labelled while their marks are still there.
    showMarkedObjects(el);
    for (const withId of el.querySelectorAll('[id]')) withId.removeAttribute('id');
    out.set(key, el);
  });
  return out;
}
