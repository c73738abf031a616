import { unzipSync } from 'fflate';
import { parseXml } from '../../src/docx/xml/parse';
import { walk, type XmlElement } from '../../src/docx/xml/tree';

/**
 * Test oracle: an independent simulation of Word's selective accept/reject on every story part (the
 * main document, headers, footers, footnotes, endnotes, comments),
 * written from the XML and the decisions alone (it shares only the XML parser with the engine,
 * none of its scanning, grouping or applying code).
 *
 * `simulateDecisions(bytes, verdicts)` is each story part as a tree of blocks after deciding the
 * changes named in `verdicts` (keyed by change id, `c<w:id>`), with every other change left
 * open and shown as its current view (open insertions shown, open deletions hidden). So
 * `simulateDecisions(engineOutput, new Map())` reads the engine's result the same way, and the
 * two can be compared whole: paragraphs (empty ones included) and tables, rows and cells.
 *
 * Rules, as Word applies them:
 * - w:ins / w:moveTo: content kept on accept, gone on reject; w:del / w:moveFrom: gone on accept,
 *   back as text on reject. A move is one change: every half in ranges of one move name takes the
 *   verdict given to any of its ids.
 * - A paragraph mark that goes (deleted mark accepted, inserted mark rejected, moved-from mark of
 *   an accepted move, moved-to mark of a rejected one) joins the paragraph with the next
 *   paragraph of the same container; with no paragraph next (a table, the container's end), the
 *   mark before goes instead (see `container`). Marks are taken first to last.
 * - Rows: an inserted row rejected or a deleted row accepted goes, with everything in it; cells
 *   likewise; a table without rows goes. A container (cell, body) that would end with a table
 *   ends with an empty paragraph.
 * - A proposed content control (`redline:proposed:<id>`) keeps its content on accept, loses it on
 *   reject; any other control is transparent.
 * - Property changes change no text.
 */
export type SimBlock = { p: string } | { table: SimBlock[][][] };
export type Verdict = 'accept' | 'reject';

export function simulateDecisions(bytes: Uint8Array, verdicts: ReadonlyMap<string, Verdict>): Record<string, SimBlock[]> {
  const files = unzipSync(bytes, { filter: (f) => STORY_PART.test(f.name) });
  const out: Record<string, SimBlock[]> = {};
  for (const name of Object.keys(files).sort()) {
    const root = parseXml(new TextDecoder().decode(files[name])).root;
    const sim = new Simulation(root, verdicts);
    if (root.name === 'w:document') {
      const body = root.first('w:body');
      if (body) out[name] = sim.container(body, true);
    } else if (root.name === 'w:hdr' || root.name === 'w:ftr') out[name] = sim.container(root, true);
    else {
      // Notes and comments: each note or comment is a story of its own (separators included).
      out[name] = root.elements().flatMap((story) => [{ p: `[${story.name} ${story.attr('w:id')}]` }, ...sim.container(story, true)]);
    }
  }
  return out;
}

/** The story parts: the main document, headers, footers, footnotes, endnotes and comments. */
const STORY_PART = /^word\/(document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml$/;

/** The paragraphs of a simulated document, flattened in reading order (cells row by row). */
export function simulatedParagraphs(blocks: readonly SimBlock[]): string[] {
  const out: string[] = [];
  const visit = (bs: readonly SimBlock[]) => {
    for (const b of bs) {
      if ('p' in b) out.push(b.p);
      else for (const row of b.table) for (const cell of row) visit(cell);
    }
  };
  visit(blocks);
  return out;
}

const INSERTION = new Set(['w:ins', 'w:moveTo']);
/** Markup that may stand between blocks without being content. */
const BETWEEN_BLOCKS = new Set([
  'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:moveFromRangeStart',
  'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd', 'w:permStart', 'w:permEnd', 'w:proofErr',
]);
const DELETION = new Set(['w:del', 'w:moveFrom']);

interface Para {
  kind: 'p';
  text: string;
  markGoes: boolean;
  /** Carries a w:sectPr (ends a section): never joined away. */
  sectPr: boolean;
  /** Holds nothing but range markers. */
  bare: boolean;
  /** Holds content, all of it in undecided insertions or deletions (deciding them may leave it bare). */
  mayEmpty: boolean;
}
interface Table {
  kind: 'table';
  rows: SimBlock[][][];
  /** Every row left still carries an undecided insertion or deletion (of itself or of all its cells): it may yet go. */
  mayGo: boolean;
}
/** A content control, custom XML or block-level revision wrapper: its own container, which no join crosses. */
interface Opaque {
  kind: 'opaque';
  blocks: SimBlock[];
  /** A decision not taken yet may unwrap or remove it. */
  unsettled?: boolean;
}
type Item = Para | Table | Opaque;

class Simulation {
  /** w:id of each move half -> its move name. */
  private readonly moveNameOf = new Map<string, string>();
  /** Move name -> verdict (from any half named in the decisions). */
  private readonly moveVerdict = new Map<string, Verdict>();

  /** Inside a rejected block-level deletion: w:delText reads as text. */
  private restoring = false;

  /** w:id of a wrapper that is part of a field unit -> the w:id of the unit's first wrapper. */
  private readonly fieldAlias = new Map<string, string>();

  constructor(root: XmlElement, private readonly verdicts: ReadonlyMap<string, Verdict>) {
    this.indexMoves(root);
    this.indexFieldUnits(root);
  }

  /**
   * A complex field tracked in pieces (Word: the begin in one w:del, an untracked " \* MERGEFORMAT "
   * run, the end in another w:del) is one change: every wrapper of the same kind from the one
   * holding the begin to the one holding the end takes the first one's verdict.
   */
  private indexFieldUnits(root: XmlElement): void {
    const depthIn = (e: XmlElement): number => {
      let d = 0;
      const visit = (x: XmlElement) => {
        if (x.name === 'w:fldChar') d += x.attr('w:fldCharType') === 'begin' ? 1 : x.attr('w:fldCharType') === 'end' ? -1 : 0;
        for (const c of x.elements()) visit(c);
      };
      visit(e);
      return d;
    };
    const codeOnly = (run: XmlElement) =>
      run.name === 'w:r' && run.elements().every((c) => c.name === 'w:rPr' || c.name === 'w:instrText' || c.name === 'w:delInstrText');
    const visit = (parent: XmlElement): void => {
      const kids = parent.elements();
      for (let i = 0; i < kids.length; i++) {
        const lead = kids[i]!;
        if ((lead.name !== 'w:ins' && lead.name !== 'w:del') || depthIn(lead) <= 0) continue;
        let depth = depthIn(lead);
        const members: XmlElement[] = [];
        let j = i + 1;
        for (; j < kids.length && depth > 0; j++) {
          const k = kids[j]!;
          if (k.name === lead.name) {
            members.push(k);
            depth += depthIn(k);
          } else if (!codeOnly(k)) break;
        }
        if (depth !== 0 || !members.length) continue;
        const leadId = lead.attr('w:id');
        if (leadId === null) continue;
        for (const m of members) {
          const id = m.attr('w:id');
          if (id !== null) this.fieldAlias.set(id, leadId);
        }
        i = j - 1;
      }
      for (const c of kids) visit(c);
    };
    visit(root);
  }

  /**
   * Pairs move halves by the name of the innermost open move range of their own direction around
   * them (a w:moveTo in a w:moveToRange, a w:moveFrom in a w:moveFromRange).
   */
  private indexMoves(root: XmlElement): void {
    const open: { key: string; name: string }[] = [];
    const lastName: Record<string, string | null> = { 'w:moveFrom': null, 'w:moveTo': null };
    const visit = (e: XmlElement): void => {
      const n = e.name;
      if (n === 'w:moveFromRangeStart' || n === 'w:moveToRangeStart') {
        const name = e.attr('w:name') ?? '';
        open.push({ key: `${n.slice(0, -5)}:${e.attr('w:id')}`, name });
        lastName[n.slice(0, -10)] = name;
        return;
      }
      if (n === 'w:moveFromRangeEnd' || n === 'w:moveToRangeEnd') {
        const key = `${n.slice(0, -3)}:${e.attr('w:id')}`;
        const at = open.findIndex((o) => o.key === key);
        if (at >= 0) open.splice(at, 1);
        return;
      }
      if (n === 'w:rPrChange' || n === 'w:pPrChange' || n === 'w:trPrChange' || n === 'w:tcPrChange') return;
      if (n === 'w:moveFrom' || n === 'w:moveTo') {
        const isMark = e.parent?.name === 'w:rPr';
        const inRange = open.filter((o) => o.key.startsWith(`${n}Range:`));
        const name = inRange.length ? inRange[inRange.length - 1]!.name : isMark ? (lastName[n] ?? null) : null;
        const id = e.attr('w:id');
        if (name !== null && id !== null) {
          this.moveNameOf.set(id, name);
          const v = this.verdicts.get(`c${id}`);
          if (v) this.moveVerdict.set(name, v);
        }
        if (isMark) return;
      }
      if (n === 'w:p') {
        // The mark counts at the paragraph's end, after the content.
        const pPr = e.first('w:pPr');
        for (const c of e.elements()) if (c !== pPr) visit(c);
        if (pPr) visit(pPr);
        return;
      }
      for (const c of e.elements()) visit(c);
    };
    visit(root);
  }

  /** The verdict given to the change this revision element belongs to, if any. */
  private verdictOf(e: XmlElement): Verdict | null {
    const id = e.attr('w:id');
    if (id === null) return null;
    const move = this.moveNameOf.get(id);
    if (move !== undefined && (e.name === 'w:moveFrom' || e.name === 'w:moveTo')) return this.moveVerdict.get(move) ?? null;
    return this.verdicts.get(`c${this.fieldAlias.get(id) ?? id}`) ?? null;
  }

  /**
   * Blocks of a container (body, cell, content control), joins done, from first to last. A
   * paragraph whose mark goes joins the paragraph right after it. With no paragraph after it (a
   * table next, or the container's end) the mark before it goes instead, as Word does: the
   * paragraph before (if it is one) joins it. Alone in its container's stretch (no paragraph
   * before or after it: its edges, tables, content controls), an empty paragraph disappears,
   * unless that leaves two tables together, its container empty or ending with a table; any
   * other stays. A paragraph ending a section (w:sectPr) never joins away.
   */
  container(el: XmlElement, isStory: boolean, unsettledEnd = false): SimBlock[] {
    const items: Item[] = [];
    this.collect(el, items);
    /** `unsettled`: a table or control output that a decision not taken yet may still remove or unwrap. */
    type Out = { block: SimBlock; para: Para | null; unsettled?: boolean };
    const out: Out[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.kind === 'table') {
        out.push({ block: { table: item.rows }, para: null, unsettled: item.mayGo });
        continue;
      }
      if (item.kind === 'opaque') {
        for (const block of item.blocks) out.push({ block, para: null, unsettled: item.unsettled });
        if (!item.blocks.length) out.push({ block: { p: '' }, para: null, unsettled: item.unsettled });
        continue;
      }
      const next = items[i + 1];
      if (item.markGoes && next?.kind === 'p') {
        items[i + 1] = { ...next, text: item.text + next.text, bare: item.bare && next.bare };
        continue;
      }
      // What it would join may still change (a table that may lose every row, a control that may be
      // unwrapped): it waits, whole, until a later decision settles that.
      // Joining backward, the block before may still go, or (first, before a table) whether it vanishes may still change.
      const before = out[out.length - 1];
      const backward = next === undefined || next.kind === 'table';
      // Alone: no paragraph before or after it (the container's edge, a table or a control), and
      // taking it away leaves no two tables together, no container empty or ending with a table.
      const tableAtEnd = (o: Out | undefined): boolean => !!o && 'table' in o.block;
      const tableAtStart = next === undefined || next.kind === 'table' || (next.kind === 'opaque' && !!next.blocks[0] && 'table' in next.blocks[0]);
      const alone = !before?.para && next?.kind !== 'p' && (before ? !(tableAtEnd(before) && tableAtStart) : next !== undefined);
      const waits =
        (next === undefined ? unsettledEnd : next.kind === 'table' ? next.mayGo : next.kind === 'opaque' && !!next.unsettled) ||
        ((backward || alone) && !!before?.unsettled) ||
        (alone && item.mayEmpty);
      if (item.markGoes && waits) {
        out.push({ block: { p: item.text }, para: { ...item, markGoes: false } });
        continue;
      }
      // Alone and bare, it goes whole, as Word takes away a paragraph whose mark and content all go.
      if (item.markGoes && !item.sectPr && alone && item.bare) continue;
      if (item.markGoes && !item.sectPr && (next === undefined || next.kind === 'table')) {
        // What stands before it now (earlier joins done): a paragraph joins it; nothing, and it may vanish.
        const previous = out[out.length - 1];
        if (previous?.para && !previous.para.sectPr) {
          out.pop();
          out.push({ block: { p: previous.para.text + item.text }, para: { ...item, text: previous.para.text + item.text } });
          continue;
        }
      }
      out.push({ block: { p: item.text }, para: item });
    }
    const blocks = out.map((o) => o.block);
    if (isStory && (blocks.length === 0 || 'table' in blocks[blocks.length - 1]!)) blocks.push({ p: '' });
    return blocks;
  }

  private collect(el: XmlElement, items: Item[]): void {
    for (const e of el.elements()) {
      switch (e.name) {
        case 'w:p':
          items.push(this.paragraph(e));
          break;
        case 'w:tbl': {
          const rows = this.rows(e);
          if (rows.length) items.push({ kind: 'table', rows, mayGo: this.tableMayGo(e) });
          break;
        }
        case 'w:sdt':
          if (this.proposalRejected(e) || this.movedControlGone(e)) break;
          if (this.boundaryVerdict(e) === 'unwrap') this.collect(e.first('w:sdtContent') ?? e, items);
          else items.push(this.opaque(e, e.first('w:sdtContent') ?? e));
          break;
        case 'w:customXml':
          if (this.boundaryVerdict(e) === 'unwrap') this.collect(e, items);
          else items.push(this.opaque(e, e));
          break;
        default:
          if (INSERTION.has(e.name) || DELETION.has(e.name)) this.blockRevision(e, items);
      }
    }
  }

  private opaque(control: XmlElement, content: XmlElement): Opaque {
    const unsettled = this.boundaryVerdict(control) === 'open';
    return { kind: 'opaque', blocks: this.container(content, false, unsettled), unsettled };
  }

  /**
   * What decisions do to a control's tracked boundaries (w:customXmlInsRangeStart / ...Del... / ...Move...,
   * right before it or inside it; both boundaries are one change): 'open' while undecided (a
   * later decision may unwrap it), 'unwrap' when an inserted control is rejected or a deleted one
   * accepted (its content stands in its place), else 'kept'. A proposed control is open while undecided.
   */
  private boundaryVerdict(control: XmlElement): 'open' | 'unwrap' | 'kept' {
    const tag = control.first('w:sdtPr')?.first('w:tag')?.attr('w:val');
    if (tag?.startsWith('redline:proposed:')) return this.verdicts.has(`c${tag.slice('redline:proposed:'.length)}`) ? 'kept' : 'open';
    const boundary = /^w:customXml(Ins|Del|MoveFrom|MoveTo)RangeStart$/;
    const siblings = control.parent?.elements() ?? [];
    const starts: XmlElement[] = [];
    for (let i = siblings.indexOf(control) - 1; i >= 0 && /^w:customXml/.test(siblings[i]!.name); i--) if (boundary.test(siblings[i]!.name)) starts.push(siblings[i]!);
    const inner = control.name === 'w:sdt' ? control.first('w:sdtContent') : control;
    for (const c of inner?.elements() ?? []) if (boundary.test(c.name)) starts.push(c);
    if (!starts.length) return 'kept';
    const decided = starts.find((x) => this.verdicts.has(`c${x.attr('w:id')}`));
    if (!decided) return 'open';
    const verdict = this.verdicts.get(`c${decided.attr('w:id')}`);
    if (decided.name.includes('Move')) return 'kept'; // moved: gone or kept whole (movedControlGone)
    return (decided.name.includes('Ins') ? verdict === 'reject' : verdict === 'accept') ? 'unwrap' : 'kept';
  }

  /** Whether every row left may still go: it, or each of its cells, has an undecided insertion or deletion. */
  private tableMayGo(tbl: XmlElement): boolean {
    const undecided = (props: XmlElement | null, names: string[]) =>
      names.some((n) => {
        const m = props?.first(n);
        return !!m && !this.verdicts.has(`c${m.attr('w:id')}`);
      });
    const cellsLeft = (tr: XmlElement) => this.within(tr, 'w:tc').filter((tc) => !this.structureGoes(tc.first('w:tcPr') ?? tc, 'w:cellIns', 'w:cellDel'));
    // The rows left: not decided away, and with a cell left (a row without cells goes).
    const rows = this.within(tbl, 'w:tr').filter((tr) => !this.structureGoes(tr.first('w:trPr') ?? tr, 'w:ins', 'w:del') && cellsLeft(tr).length > 0);
    return rows.length > 0 && rows.every((tr) => undecided(tr.first('w:trPr'), ['w:ins', 'w:del']) || cellsLeft(tr).every((tc) => undecided(tc.first('w:tcPr'), ['w:cellIns', 'w:cellDel'])));
  }

  /**
   * A w:ins / w:del around whole paragraphs stands for a revision of each paragraph's content and
   * mark: undecided, its paragraphs show (inserted) or not (deleted) and no join crosses it, as
   * a later decision may still remove or keep them; kept, its paragraphs are ordinary ones; gone,
   * each is an empty paragraph whose mark goes (a table in it goes whole).
   */
  private blockRevision(e: XmlElement, items: Item[]): void {
    if (this.verdictOf(e) === null) {
      if (this.contentStays(e, true)) items.push({ kind: 'opaque', blocks: this.container(e, false, true), unsettled: true });
      return;
    }
    if (this.contentStays(e, false)) {
      // A rejected deletion: its paragraphs' deleted text is back.
      const restoring = this.restoring;
      if (DELETION.has(e.name)) this.restoring = true;
      this.collect(e, items);
      this.restoring = restoring;
      return;
    }
    for (const p of e.elements()) {
      if (p.name === 'w:p') items.push({ kind: 'p', text: '', markGoes: true, sectPr: !!p.first('w:pPr')?.first('w:sectPr'), bare: true, mayEmpty: false });
    }
  }

  private proposalRejected(sdt: XmlElement): boolean {
    const tag = sdt.first('w:sdtPr')?.first('w:tag')?.attr('w:val');
    if (!tag || !tag.startsWith('redline:proposed:')) return false;
    return this.verdicts.get(`c${tag.slice('redline:proposed:'.length)}`) === 'reject';
  }

  /** Whether a wrapper's content stays: `shownOpen` is what an undecided one shows. */
  private contentStays(e: XmlElement, shownOpen: boolean): boolean {
    const v = this.verdictOf(e);
    if (v === null) return INSERTION.has(e.name) ? true : shownOpen;
    return INSERTION.has(e.name) ? v === 'accept' : v === 'reject';
  }

  private rows(tbl: XmlElement): SimBlock[][][] {
    const rows: SimBlock[][][] = [];
    for (const tr of this.within(tbl, 'w:tr')) {
      const trPr = tr.first('w:trPr');
      if (trPr && this.structureGoes(trPr, 'w:ins', 'w:del')) continue;
      const cells: SimBlock[][] = [];
      for (const tc of this.within(tr, 'w:tc')) {
        const tcPr = tc.first('w:tcPr');
        if (tcPr && this.structureGoes(tcPr, 'w:cellIns', 'w:cellDel')) continue;
        cells.push(this.container(tc, true));
      }
      if (cells.length) rows.push(cells);
    }
    return rows;
  }

  /** A row or cell goes when its insertion is rejected or its deletion accepted. */
  private structureGoes(props: XmlElement, insName: string, delName: string): boolean {
    const insMark = props.first(insName);
    if (insMark && this.verdicts.get(`c${insMark.attr('w:id')}`) === 'reject') return true;
    const delMark = props.first(delName);
    return !!delMark && this.verdicts.get(`c${delMark.attr('w:id')}`) === 'accept';
  }

  /** Rows of a table or cells of a row, also inside row- or cell-level controls and custom XML. */
  private within(e: XmlElement, name: string): XmlElement[] {
    const out: XmlElement[] = [];
    for (const c of e.elements()) {
      if (c.name === name) out.push(c);
      else if (c.name === 'w:sdt') {
        if (!this.proposalRejected(c)) out.push(...this.within(c.first('w:sdtContent') ?? c, name));
      } else if (c.name === 'w:customXml') out.push(...this.within(c, name));
    }
    return out;
  }

  /**
   * A control whose boundaries were moved (w:customXmlMoveFromRangeStart / ...MoveTo... right
   * before it) goes with its move: at the source when the move is accepted, at the destination
   * when it is rejected (issue 17.2). The move's verdict is that of the moved content inside it.
   */
  private movedControlGone(sdt: XmlElement): boolean {
    const siblings = sdt.parent?.elements() ?? [];
    const before = siblings[siblings.indexOf(sdt) - 1]?.name;
    const side = before === 'w:customXmlMoveFromRangeStart' ? 'w:moveFrom' : before === 'w:customXmlMoveToRangeStart' ? 'w:moveTo' : null;
    if (!side) return false;
    let verdict: Verdict | null = null;
    walk(sdt, (e) => {
      if (verdict === null && e.name === side) verdict = this.verdictOf(e);
      return verdict === null;
    });
    return verdict === (side === 'w:moveFrom' ? 'accept' : 'reject');
  }

  private paragraph(p: XmlElement): Para {
    let text = '';
    const inline = (e: XmlElement, restored: boolean): void => {
      const n = e.name;
      if (n === 'mc:Fallback' || n === 'w:pPr' || n === 'w:rPr') return;
      if (n === 'w:t' || (restored && n === 'w:delText')) {
        text += e.children.map((c) => (c.kind === 2 ? c.text : '')).join('');
        return;
      }
      if (INSERTION.has(n)) {
        if (this.contentStays(e, true)) for (const c of e.elements()) inline(c, restored);
        return;
      }
      if (DELETION.has(n)) {
        const v = this.verdictOf(e);
        if (v === 'accept') return;
        for (const c of e.elements()) inline(c, v === 'reject');
        return;
      }
      if (n === 'w:sdt' && this.proposalRejected(e)) return;
      for (const c of e.elements()) inline(c, restored);
    };
    for (const c of p.elements()) inline(c, this.restoring);
    // Bare once decided: what is left is range markers (a decided insertion or deletion that goes leaves nothing).
    const gone = (c: XmlElement) => (INSERTION.has(c.name) || DELETION.has(c.name)) && this.verdictOf(c) !== null && !this.contentStays(c, false);
    const bare = p.elements().every((c) => c.name === 'w:pPr' || BETWEEN_BLOCKS.has(c.name) || gone(c) || (c.name === 'w:sdt' && this.proposalRejected(c)));
    const content = p.elements().filter((c) => c.name !== 'w:pPr' && !BETWEEN_BLOCKS.has(c.name) && !gone(c));
    const mayEmpty = content.length > 0 && content.every((c) => (INSERTION.has(c.name) || DELETION.has(c.name)) && this.verdictOf(c) === null);
    return { kind: 'p', text, markGoes: this.markGoes(p), sectPr: !!p.first('w:pPr')?.first('w:sectPr'), bare, mayEmpty };
  }

  private markGoes(p: XmlElement): boolean {
    const rPr = p.first('w:pPr')?.first('w:rPr');
    if (!rPr) return false;
    for (const m of rPr.elements()) {
      const v = this.verdictOf(m);
      if (v === null) continue;
      if ((m.name === 'w:del' || m.name === 'w:moveFrom') && v === 'accept') return true;
      if ((m.name === 'w:ins' || m.name === 'w:moveTo') && v === 'reject') return true;
    }
    return false;
  }
}
