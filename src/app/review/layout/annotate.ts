import { fieldSwitchFormat } from './number-format';
import { liftPageBreak } from './page-breaks';

/**
 * docx-preview's parsed model (its WordDocument is typed `any`): the few fields this module
 * reads and sets. Classes set here come out on the rendered elements (docx-preview copies an
 * element's className), which is how the page layout finds what Word's layout needs and
 * docx-preview's HTML does not say: keep-with-next, header rows, note references, page fields.
 */
export interface ModelNode {
  type: string;
  children?: ModelNode[];
  className?: string;
  [key: string]: unknown;
}

export interface HeaderFooterRef {
  id: string;
  type: 'default' | 'first' | 'even' | string;
}

/** A section's properties as docx-preview parses w:sectPr. */
export interface SectionProps {
  type?: string;
  titlePage?: boolean;
  headerRefs?: HeaderFooterRef[];
  footerRefs?: HeaderFooterRef[];
  pageNumber?: { format?: string; start?: number };
  pageSize?: unknown;
  pageMargins?: unknown;
  [key: string]: unknown;
}

interface StyleModel {
  id?: string;
  basedOn?: string;
  paragraphProps?: { keepNext?: boolean; keepLines?: boolean; pageBreakBefore?: boolean };
}

export interface WordModel {
  documentPart: { body: ModelNode & { props: SectionProps } };
  stylesPart?: { styles: StyleModel[] };
  settingsPart?: { settings?: { evenAndOddHeaders?: boolean; footnoteProps?: { nummeringFormat?: string }; endnoteProps?: { nummeringFormat?: string } } };
  footnotesPart?: { notes: ModelNode[] };
  endnotesPart?: { notes: ModelNode[] };
  findPartByRelId(id: string, base: unknown): { rootElement: ModelNode } | null | undefined;
}

/** The classes the layout reads. */
export const CLS = {
  keepNext: 'rl-keep-next',
  keepLines: 'rl-keep-lines',
  headerRow: 'rl-header-row',
  sectionEnd: 'rl-sect-end',
  footnoteRef: 'rl-fnref',
  endnoteRef: 'rl-enref',
  field: 'rl-field',
} as const;

const PAGE_FIELDS = new Set(['PAGE', 'NUMPAGES', 'SECTIONPAGES']);

function addClass(node: ModelNode, cls: string): void {
  node.className = node.className ? `${node.className} ${cls}` : cls;
}

/** Every run of a paragraph in order, through hyperlinks, smart tags, insertions and deletions. */
function runsOf(node: ModelNode, into: { run: ModelNode; siblings: ModelNode[] }[] = []): { run: ModelNode; siblings: ModelNode[] }[] {
  for (const child of node.children ?? []) {
    if (child.type === 'run') into.push({ run: child, siblings: node.children! });
    else if (child.type !== 'paragraph' && child.type !== 'table') runsOf(child, into);
  }
  return into;
}

/**
 * A PAGE, NUMPAGES or SECTIONPAGES field shows the number saved in the file (the page Word was on
 * when it saved: "29" on a title page). Its result runs are emptied and a run of the field's
 * formatting is put in their place, classed with the field and its format, for the layout to
 * fill in per page.
 */
function markPageFields(paragraph: ModelNode): void {
  let state: 'none' | 'code' | 'result' = 'none';
  let instruction = '';
  let begin: { run: ModelNode; siblings: ModelNode[] } | null = null;
  let depth = 0;
  for (const entry of runsOf(paragraph)) {
    const { run } = entry;
    for (const child of run.children ?? []) {
      if (child.type === 'complexField') {
        const kind = child.charType as string | undefined;
        if (kind === 'begin') {
          depth++;
          if (depth === 1) {
            state = 'code';
            instruction = '';
            begin = entry;
          }
        } else if (kind === 'separate' && depth === 1) state = 'result';
        else if (kind === 'end') {
          depth = Math.max(0, depth - 1);
          if (depth === 0) {
            if (state !== 'none') finish();
            state = 'none';
          }
        }
      } else if (child.type === 'instruction' && state === 'code' && depth === 1) instruction += String(child.text ?? '');
    }
    if (state === 'result' && depth === 1 && run !== begin?.run && isPageField()) run.children = [];
  }
  function isPageField(): boolean {
    return PAGE_FIELDS.has(instruction.trim().split(/\s+/)[0]?.toUpperCase() ?? '');
  }
  function finish(): void {
    if (!begin || !isPageField()) return;
    const name = instruction.trim().split(/\s+/)[0]!.toLowerCase();
    const format = fieldSwitchFormat(instruction) ?? 'section';
    const { fieldRun: _fieldRun, children: _children, className: _className, ...runProps } = begin.run;
    const shown: ModelNode = { ...runProps, type: 'run', className: `${CLS.field} rl-field-${name} rl-fmt-${format}`, children: [{ type: 'text', text: '\u00a0' }] };
    begin.siblings.splice(begin.siblings.indexOf(begin.run) + 1, 0, shown);
  }
}

function walk(node: ModelNode, visit: (node: ModelNode) => void): void {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

/**
 * Classes the layout needs, set on the model before it is rendered; answers each section's
 * properties in document order (the last is the body's own w:sectPr).
 */
export function annotateModel(doc: WordModel): SectionProps[] {
  const styles = new Map((doc.stylesPart?.styles ?? []).filter((s) => s.id).map((s) => [s.id!, s]));
  const styleFlag = (id: unknown, flag: 'keepNext' | 'keepLines' | 'pageBreakBefore'): boolean => {
    for (let s = styles.get(String(id)), hops = 0; s && hops < 20; s = s.basedOn ? styles.get(s.basedOn) : undefined, hops++) {
      const v = s.paragraphProps?.[flag];
      if (v !== undefined) return v;
    }
    return false;
  };
  const body = doc.documentPart.body;
  const sections: SectionProps[] = [];
  for (const block of body.children ?? []) {
    if (block.type !== 'paragraph') continue;
    if (block.sectionProps) {
      sections.push(block.sectionProps as SectionProps);
      addClass(block, CLS.sectionEnd);
    }
    // docx-preview starts a page only at a break it sees, and reads w:pageBreakBefore from the paragraph's own style alone (not the styles it is based on).
    liftPageBreak(block);
    if (block.pageBreakBefore === undefined && styleFlag(block.styleName, 'pageBreakBefore')) block.pageBreakBefore = true;
  }
  sections.push(body.props ?? {});
  walk(body, (node) => {
    if (node.type === 'paragraph') {
      if ((node.keepNext as boolean | undefined) ?? styleFlag(node.styleName, 'keepNext')) addClass(node, CLS.keepNext);
      if ((node.keepLines as boolean | undefined) ?? styleFlag(node.styleName, 'keepLines')) addClass(node, CLS.keepLines);
      markPageFields(node);
    } else if (node.type === 'row' && node.isHeader) addClass(node, CLS.headerRow);
    else if (node.type === 'run') {
      for (const child of node.children ?? []) {
        if (child.type === 'footnoteReference') addClass(node, `${CLS.footnoteRef} rl-note-${String(child.id)}`);
        else if (child.type === 'endnoteReference') addClass(node, `${CLS.endnoteRef} rl-note-${String(child.id)}`);
      }
    }
  });
  return sections;
}

/** Marks the page fields of a header or footer part (once: parts are shared between sections). */
export function annotateHeaderFooter(root: ModelNode): void {
  if (root.rlAnnotated) return;
  root.rlAnnotated = true;
  walk(root, (node) => {
    if (node.type === 'paragraph') markPageFields(node);
  });
}
