import { CLS } from './annotate';
import { formatNumber } from './number-format';

/** A w:footnotePr or w:endnotePr: the number format, the first number, and where numbering restarts. */
export interface NoteProps {
  format?: string;
  start?: number;
  restart?: 'continuous' | 'eachSect' | 'eachPage';
  /** Where endnotes go (w:pos): after their own section's text, or (Word's default) the document's. */
  position?: 'sectEnd' | 'docEnd';
}

/** How a document numbers its notes: the settings' defaults, and each section's own (document order, null: none). */
export interface NoteNumbering {
  footnote: NoteProps;
  endnote: NoteProps;
  sectionFootnotes: readonly (NoteProps | null)[];
  sectionEndnotes: readonly (NoteProps | null)[];
}

export const DEFAULT_NOTE_NUMBERING: NoteNumbering = { footnote: {}, endnote: {}, sectionFootnotes: [], sectionEndnotes: [] };

const attr = (xml: string, element: string): string | undefined => new RegExp(`<w:${element}\\b[^>]*\\bw:val="([^"]*)"`).exec(xml)?.[1];

/** The properties in a w:footnotePr / w:endnotePr element's XML. */
export function readNoteProps(xml: string): NoteProps {
  const props: NoteProps = {};
  const format = attr(xml, 'numFmt');
  if (format) props.format = format;
  const start = Number(attr(xml, 'numStart'));
  if (Number.isInteger(start) && start > 0) props.start = start;
  const restart = attr(xml, 'numRestart');
  if (restart === 'continuous' || restart === 'eachSect' || restart === 'eachPage') props.restart = restart;
  const position = attr(xml, 'pos');
  if (position === 'sectEnd' || position === 'docEnd') props.position = position;
  return props;
}

/** The note properties element `kind` inside `xml` (its first), or null. */
function noteProps(xml: string, kind: 'footnotePr' | 'endnotePr'): NoteProps | null {
  const m = new RegExp(`<w:${kind}\\b[^>]*?(?:/>|>([\\s\\S]*?)</w:${kind}>)`).exec(xml);
  return m ? readNoteProps(m[1] ?? '') : null;
}

/**
 * How notes are numbered, from word/settings.xml (the document's w:footnotePr / w:endnotePr) and
 * word/document.xml (each w:sectPr's own, which docx-preview does not read): sections in document
 * order, the body's last.
 */
export function readNoteNumbering(settingsXml: string | null, documentXml: string | null): NoteNumbering {
  const footnote = (settingsXml && noteProps(settingsXml, 'footnotePr')) || {};
  const endnote = (settingsXml && noteProps(settingsXml, 'endnotePr')) || {};
  const sectionFootnotes: (NoteProps | null)[] = [];
  const sectionEndnotes: (NoteProps | null)[] = [];
  for (const m of (documentXml ?? '').matchAll(/<w:sectPr\b[^>]*?(?:\/>|>([\s\S]*?)<\/w:sectPr>)/g)) {
    sectionFootnotes.push(noteProps(m[1] ?? '', 'footnotePr'));
    sectionEndnotes.push(noteProps(m[1] ?? '', 'endnotePr'));
  }
  return { footnote, endnote, sectionFootnotes, sectionEndnotes };
}

/**
 * The labels of notes referenced in order, each at its section and page, as Word numbers them: a
 * section's own properties over the document's; numbering starts at `start` (1) and begins again
 * at each section (eachSect) or page (eachPage), else goes on through the document.
 */
export function noteLabels(refs: readonly { section: number; page: number }[], doc: NoteProps, sections: readonly (NoteProps | null)[], defaultFormat: string): string[] {
  let n = 0;
  let previous: { section: number; page: number } | null = null;
  return refs.map((ref) => {
    const props = { ...doc, ...(sections[ref.section] ?? {}) };
    const restart = props.restart ?? 'continuous';
    const starts =
      previous === null ||
      (restart === 'eachSect' && ref.section !== previous.section) ||
      (restart === 'eachPage' && ref.page !== previous.page);
    n = starts ? (props.start ?? 1) : n + 1;
    previous = ref;
    return formatNumber(n, props.format ?? defaultFormat);
  });
}

/**
 * Numbers the laid-out pages' note references and notes. Each page's articles say their section
 * (`data-section`); a page's footnotes are listed at its foot in the order of its references,
 * endnotes after the text in the order of theirs.
 */
export function numberNotes(pages: readonly HTMLElement[], numbering: NoteNumbering): void {
  const refsOf = (selector: string) => {
    const refs: { el: HTMLElement; section: number; page: number }[] = [];
    pages.forEach((page, p) => {
      for (const article of page.querySelectorAll<HTMLElement>(':scope > article')) {
        const section = Number(article.dataset.section ?? 0);
        for (const el of article.querySelectorAll<HTMLElement>(selector)) refs.push({ el, section, page: p });
      }
    });
    return refs;
  };
  const label = (refs: { el: HTMLElement; section: number; page: number }[], labels: string[]) =>
    refs.forEach(({ el }, i) => {
      const sup = el.querySelector('sup') ?? el;
      sup.textContent = labels[i]!;
    });
  const footRefs = refsOf(`.${CLS.footnoteRef}`);
  const footLabels = noteLabels(footRefs, numbering.footnote, numbering.sectionFootnotes, 'decimal');
  label(footRefs, footLabels);
  const footNotes = pages.flatMap((page) => [...page.querySelectorAll<HTMLElement>(':scope > ol.rl-footnotes > li')]);
  footNotes.forEach((li, i) => labelNote(li, footLabels[i]));
  const endRefs = refsOf(`.${CLS.endnoteRef}`);
  // Endnotes have no page restart.
  const endProps = (p: NoteProps | null): NoteProps | null => (p?.restart === 'eachPage' ? { ...p, restart: 'continuous' } : p);
  const endLabels = noteLabels(endRefs, endProps(numbering.endnote) ?? {}, numbering.sectionEndnotes.map(endProps), 'lowerRoman');
  label(endRefs, endLabels);
  const endNotes = pages.flatMap((page) => [...page.querySelectorAll<HTMLElement>('ol.rl-endnotes > li')]);
  endNotes.forEach((li, i) => labelNote(li, endLabels[i]));
}

function labelNote(li: HTMLElement, text: string | undefined): void {
  if (text === undefined) return;
  li.dataset.note = text;
  const mark = document.createElement('sup');
  mark.className = 'rl-note-label';
  mark.textContent = text;
  const target = li.querySelector('p') ?? li;
  target.prepend(mark);
}
