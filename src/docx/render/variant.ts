import { changeBookmarkName, MARK_PREFIX, moveOtherHalfBookmarkName } from '../../contract/bookmark';
import type { Change } from '../revisions/changes';
import { siteContent, type PartScan, type Site } from '../revisions/sites';
import { XmlOverlay } from '../xml/overlay';
import { ancestorNamed, childOfParagraph, firstParagraph } from '../ooxml/paragraphs';
import { XmlElement, XmlText, walk } from '../xml/tree';
import { describeParagraphChange, describeRunChange } from './formatting';
import { objectMarkName } from './objects';

/**
 * The display variant of a draft for docx-preview 0.4.1, which renders only w:ins/w:del inside
 * paragraphs (as <ins>/<del>), drops moved text, shows no property change and renders each
 * w:bookmarkStart as an empty <span id="NAME">. So every change gets:
 *  - a bookmark named changeBookmarkName(change_id) at its start, inside a paragraph, so the app
 *    can scroll to it, and for a move moveOtherHalfBookmarkName(change_id) at its other half;
 *  - moves turned into plain deletions and insertions, so both halves show;
 *  - for changes docx-preview cannot show (paragraph marks, formatting, rows, cells, tables,
 *    sections), a small highlighted marker run: "¶" for a paragraph mark, "✎" for formatting,
 *    "⊕"/"⊖" for an inserted/deleted row or cell, "⊞" for merged cells. Markers sit inside a
 *    w:del so "No markup" (renderChanges: false) hides them like any deletion.
 * Changes in styles or numbering have no place in the text and get no bookmark.
 *
 * All of it is an overlay: the document itself is not changed.
 */
export function buildRenderOverlay(scans: readonly PartScan[], changes: readonly Change[]): XmlOverlay {
  const overlay = new XmlOverlay();
  // Markers and bookmarks first (they need the original structure), then moves become ins/del.
  for (const change of changes) {
    const lead = change.sites[0]!;
    if (lead.role === 'styles' || lead.role === 'numbering') continue;
    place(overlay, lead, bookmark(changeBookmarkName(change.changeId)));
    // A move is listed once, at its first half; its other half gets a bookmark of its own.
    const other = change.sites.find((site) => isMoveTo(site) !== isMoveTo(lead) && isMove(site));
    if (isMove(lead) && other) place(overlay, other, bookmark(moveOtherHalfBookmarkName(change.changeId)));
  }
  // What each mark is (formatting described, moves, proposals), for the app to show (layout/marks.ts).
  let serial = 0;
  const named = (_part: string, name: string): XmlElement[] => bookmark(name);
  for (const change of changes) {
    for (const site of change.sites) {
      const name = markName(site, change.changeId, ++serial);
      if (name) placeMark(overlay, site, (n) => named(site.part, n), name);
    }
  }
  for (const change of changes) for (const site of change.sites) showMove(overlay, site);
  // Charts, shapes and text boxes: what they are, for the app to draw or label (objects.ts).
  for (const scan of scans) {
    walk(scan.doc.root, (e) => {
      if (e.name !== 'w:drawing') return true;
      const name = objectMarkName(e, ++serial);
      const top = name ? childOfParagraph(e) : null;
      if (name && top) overlay.insertBefore(top, named(scan.part, name));
      return false;
    });
  }
  return overlay;
}

/**
 * A bookmark whose id follows from its name: far above the ids documents use (and the waiting
 * joins' ones, joins.ts), and the same whatever other changes the draft holds, so a block whose
 * changes did not change renders the same after a batch (variant-memo.ts). docx-preview reads
 * only the name.
 */
function bookmark(name: string): XmlElement[] {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) % 100_000_000;
  const id = String(2_000_000_000 + h);
  return [XmlElement.create('w:bookmarkStart', { 'w:id': id, 'w:name': name }), XmlElement.create('w:bookmarkEnd', { 'w:id': id })];
}

const TABLE_LABEL: Partial<Record<Site['type'], string>> = {
  'tblpr-change': 'Formatted table', 'tblgrid-change': 'Formatted table', 'tblprex-change': 'Formatted table', 'trpr-change': 'Formatted row', 'tcpr-change': 'Formatted cell',
};

function markName(site: Site, changeId: string, serial: number): string | null {
  const el = site.el;
  switch (site.type) {
    case 'rpr-change':
      return el.parent?.parent?.name === 'w:r' ? `${MARK_PREFIX.run}${serial}_${encodeURIComponent(describeRunChange(el.parent, el.first('w:rPr')))}` : null;
    case 'ppr-change':
      return `${MARK_PREFIX.paragraph}${serial}_${encodeURIComponent(describeParagraphChange(el.parent, el.first('w:pPr')))}`;
    case 'move-from':
      return `${MARK_PREFIX.moveFrom}${serial}_${changeId}`;
    case 'move-to':
      return `${MARK_PREFIX.moveTo}${serial}_${changeId}`;
    case 'proposed':
      return `${MARK_PREFIX.proposalStart}${serial}_${changeId}`;
    // Accepting takes these away: "No markup" shows the draft as accepting everything would.
    case 'mark-del':
    case 'mark-move-from':
      return `${MARK_PREFIX.markGone}${serial}`;
    case 'row-del':
      return `${MARK_PREFIX.rowGone}${serial}`;
    default: {
      const label = TABLE_LABEL[site.type];
      return label ? `${MARK_PREFIX.table}${serial}_${encodeURIComponent(label)}` : null;
    }
  }
}

function placeMark(overlay: XmlOverlay, site: Site, named: (name: string) => XmlElement[], name: string): void {
  const el = site.el;
  switch (site.type) {
    case 'rpr-change': {
      const run = el.parent!.parent!;
      // Right before the run, so the run is the element after the mark's span.
      if (run.parent?.name === 'w:p' || run.parent?.name === 'w:ins' || run.parent?.name === 'w:del') overlay.insertBefore(run, named(name));
      else {
        const top = childOfParagraph(run);
        if (top) overlay.insertBefore(top, named(name));
      }
      return;
    }
    case 'ppr-change': {
      const p = ancestorNamed(el, 'w:p');
      if (p) atParagraphStart(overlay, p, named(name));
      return;
    }
    case 'move-from':
    case 'move-to':
      if (childOfParagraph(el) === el) overlay.insertBefore(el, named(name));
      return;
    case 'mark-del':
    case 'mark-move-from': {
      const p = el.parent?.parent?.parent;
      if (p?.name === 'w:p') overlay.append(p, named(name));
      return;
    }
    case 'row-del': {
      const row = ancestorNamed(el, 'w:tr');
      const p = row ? firstParagraph(row) : null;
      if (p) atParagraphStart(overlay, p, named(name));
      return;
    }
    case 'proposed': {
      const end = name.replace(MARK_PREFIX.proposalStart, MARK_PREFIX.proposalEnd);
      if (childOfParagraph(el)) {
        overlay.insertBefore(el, named(name));
        overlay.insertAfter(el, named(end));
      } else {
        const content = siteContent(site);
        const first = firstParagraph(content);
        const last = lastParagraph(content);
        if (first && last) {
          atParagraphStart(overlay, first, named(name));
          overlay.append(last, named(end));
        }
      }
      return;
    }
    default: {
      const holder = ancestorNamed(el, site.type === 'tcpr-change' ? 'w:tc' : site.type === 'trpr-change' ? 'w:tr' : 'w:tbl');
      const p = holder ? firstParagraph(holder) : null;
      if (p) atParagraphStart(overlay, p, named(name));
    }
  }
}

const isMove = (site: Site) => site.type === 'move-from' || site.type === 'move-to' || site.type === 'mark-move-from' || site.type === 'mark-move-to';
const isMoveTo = (site: Site) => site.type === 'move-to' || site.type === 'mark-move-to';

function marker(text: string): XmlElement {
  const rPr = XmlElement.create('w:rPr', {}, [XmlElement.create('w:highlight', { 'w:val': 'yellow' })]);
  const delText = XmlElement.create('w:delText', { 'xml:space': 'preserve' }, [new XmlText(text)]);
  const run = XmlElement.create('w:r', {}, [rPr, delText]);
  return XmlElement.create('w:del', { 'w:id': '0', 'w:author': 'Redline', 'w:date': '1970-01-01T00:00:00Z' }, [run]);
}

const MARKERS: Partial<Record<Site['type'], string>> = {
  'mark-ins': '¶', 'mark-del': '¶', 'mark-move-from': '¶', 'mark-move-to': '¶',
  'row-ins': '⊕', 'row-del': '⊖', 'cell-ins': '⊕', 'cell-del': '⊖', 'cell-merge': '⊞',
  'rpr-change': '✎', 'ppr-change': '✎', 'tblpr-change': '✎', 'tblgrid-change': '✎', 'tblprex-change': '✎',
  'trpr-change': '✎', 'tcpr-change': '✎', 'sectpr-change': '✎', 'numbering-change': '✎', 'num-ins': '✎',
};

function place(overlay: XmlOverlay, site: Site, bookmark: XmlElement[]): void {
  const el = site.el;
  const sign = MARKERS[site.type];
  const nodes = sign ? [...bookmark, marker(sign)] : bookmark;
  switch (site.type) {
    case 'run-ins':
    case 'run-del':
    case 'move-from':
    case 'move-to':
    case 'proposed': {
      const top = childOfParagraph(el);
      if (top) overlay.insertBefore(top, nodes);
      else {
        const p = firstParagraph(siteContent(site));
        if (p) atParagraphStart(overlay, p, nodes);
      }
      return;
    }
    case 'control-ins':
    case 'control-del':
    case 'control-move-from':
    case 'control-move-to': {
      // An inline control's boundary stands in its paragraph; a block-level one's before the control.
      const top = childOfParagraph(el);
      const p = top ? null : firstParagraph(site.boundary?.target ?? el);
      if (top) overlay.insertBefore(top, nodes);
      else if (p) atParagraphStart(overlay, p, nodes);
      return;
    }
    case 'rpr-change': {
      const holder = el.parent;
      if (holder?.parent?.name === 'w:pPr') {
        const p = holder.parent.parent;
        if (p?.name === 'w:p') overlay.append(p, nodes);
        return;
      }
      const run = holder?.parent;
      const top = run ? childOfParagraph(run) : null;
      if (top) overlay.insertBefore(top, nodes);
      return;
    }
    case 'mark-ins':
    case 'mark-del':
    case 'mark-move-from':
    case 'mark-move-to': {
      const p = el.parent?.parent?.parent;
      if (p?.name === 'w:p') overlay.append(p, nodes);
      return;
    }
    case 'ppr-change':
    case 'numbering-change':
    case 'num-ins': {
      const p = ancestorNamed(el, 'w:p');
      if (p) atParagraphStart(overlay, p, nodes);
      return;
    }
    case 'sectpr-change': {
      const sectPr = el.parent;
      const p = sectPr?.parent?.name === 'w:pPr' ? sectPr.parent.parent : lastParagraph(sectPr?.parent ?? null);
      if (p?.name === 'w:p') overlay.append(p, nodes);
      return;
    }
    default: {
      // Row, cell and table changes: the first paragraph of the row, cell or table.
      const holder = ancestorNamed(el, site.type.startsWith('cell') || site.type === 'tcpr-change' ? 'w:tc' : site.type === 'tblpr-change' || site.type === 'tblgrid-change' ? 'w:tbl' : 'w:tr');
      const p = holder ? firstParagraph(holder) : null;
      if (p) atParagraphStart(overlay, p, nodes);
    }
  }
}

/** Moves render as what they are on screen: the source deleted, the destination inserted. */
function showMove(overlay: XmlOverlay, site: Site): void {
  const el = site.el;
  if (!el.parent) return;
  if (site.type === 'move-from' || site.type === 'mark-move-from') {
    overlay.rename(el, 'w:del');
    if (site.type === 'move-from') {
      walk(el, (e) => {
        if (e.name === 'w:t') overlay.rename(e, 'w:delText');
        else if (e.name === 'w:instrText') overlay.rename(e, 'w:delInstrText');
        return true;
      });
    }
  } else if (site.type === 'move-to' || site.type === 'mark-move-to') overlay.rename(el, 'w:ins');
}

function lastParagraph(container: XmlElement | null): XmlElement | null {
  if (!container) return null;
  const ps = container.all('w:p');
  return ps[ps.length - 1] ?? null;
}

/** After the paragraph's properties (before anything put there earlier), else at its start. */
function atParagraphStart(overlay: XmlOverlay, p: XmlElement, nodes: XmlElement[]): void {
  const pPr = p.first('w:pPr');
  if (pPr) overlay.insertAfter(pPr, nodes);
  else overlay.prepend(p, nodes);
}
