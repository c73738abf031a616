import { blockAfter } from '../revisions/joins';
import { XmlElement, XmlText, walk } from '../xml/tree';
import type { Interner} from './diff';
import { diffSequences, type Hunk } from './diff';
import type { PackageImport } from './import';
import { amongControls, anchorAt, fittingAnchor, anchorContainer, blockElement, controlPath, controlsAround, type Anchor } from './controls';
import {
  deleteParagraphContent, markCell, markRow, recordParagraphProperties, recordTableProperties, toDeletedText, type Insertion, type Plan,
  type RevisionWriter, type Status,
} from './mark';
import { OVERFLOW_SYMBOL, elementText, isSpaceAt, isWordAt, textBoxesOf, type TableHolder, type Block, type Cell, type Para, type Row, type Segment, type StoryReader, type Table, type Token } from './model';

/**
 * Comparing one story (the body, a header, a note...) of the older version with the same story of
 * newer, planning the tracked changes into newer's tree:
 * - blocks are matched by key (paragraph hashes: text, formatting, paragraph properties);
 * - in a stretch that differs, tables pair with tables (rows matched by key, then by similarity,
 *   cells compared one by one) and the paragraphs between them are compared as one stream of
 *   words with their paragraph marks, so a changed word, a split and a join are all found;
 * - paragraphs wholly deleted in one place and inserted unchanged in another are a move.
 */
export interface StoryContext {
  older: StoryReader;
  newer: StoryReader;
  olderPart: string;
  newerPart: string;
  plan: Plan;
  rw: RevisionWriter;
  importer: PackageImport;
  interner: Interner;
  /** Notes whose references the comparison matched: `footnote:<older id>` -> newer id. */
  notePairs: Map<string, string>;
  /** Whether moved paragraphs and passages are found (else each is a deletion and an insertion). */
  moves: boolean;
  /** Whether the text in text boxes is compared (else newer's boxes stand as they are). */
  textBoxes: boolean;
}

interface PendingDeletion {
  blocks: Block[];
  anchor: Anchor;
}

/** Minimal visible length of a paragraph that may count as moved (shorter ones recur by chance). */
const MIN_MOVE_CHARS = 20;

export class StoryComparison {
  private deletions: PendingDeletion[] = [];
  private insertions: Para[] = [];
  private afterAnchors = new Map<XmlElement, XmlElement>();
  private copies = new WeakMap<XmlElement, XmlElement>();
  /** Deleted and inserted passages of at least a sentence, held until the story's end to find moves among them. */
  private spanDeletions: { tokens: Token[]; place: (ins: Insertion) => void }[] = [];
  private spanInsertions: { tokens: Token[]; before: (ins: Insertion) => void; after: (ins: Insertion) => void }[] = [];
  private moveCount = 0;

  constructor(private readonly ctx: StoryContext) {}

  /** Compares the block content of two containers (a body, a cell, a note) and plans the changes. */
  container(olderBlocks: Block[], newerBlocks: Block[], container: XmlElement): void {
    // A block inside content controls matches only a block inside the same controls (by their
    // places): paired across a control's edge, what is inserted or deleted around it lands in
    // another control than the one the other version had it in, where the engine's join rules
    // may keep a mark (a control's only paragraph, a paragraph after a table at its end).
    const a = olderBlocks.map((x) => this.placedKey(x));
    const b = newerBlocks.map((x) => this.placedKey(x));
    for (const h of diffSequences(a, b)) {
      if (h.equal) {
        for (let k = h.aStart; k < h.aEnd; k++) {
          const o = olderBlocks[k]!;
          const n = newerBlocks[k - h.aStart + h.bStart]!;
          this.pairNotes(o, n);
          if (o.kind === 'tbl' && n.kind === 'tbl') this.sameTable(o, n);
        }
        continue;
      }
      this.hunk(olderBlocks.slice(h.aStart, h.aEnd), newerBlocks.slice(h.bStart, h.bEnd), anchorAt(newerBlocks, h.bEnd, container));
    }
  }

  /** A block's hash, with the places of the content controls around it when there are any. */
  private placedKey(block: Block): number {
    const path = controlPath(block);
    return path ? -1 - this.ctx.interner.id(`${block.hash}@${path}`) : block.hash;
  }

  /** Equal blocks: their note references pair in order. */
  private pairNotes(o: Block, n: Block): void {
    if (!o.notes) return;
    const refs = (b: Block): XmlElement[] => {
      const out: XmlElement[] = [];
      for (const el of b.kind === 'p' ? b.parts : [b.el]) {
        walk(el, (e) => {
          if (e.name === 'w:footnoteReference' || e.name === 'w:endnoteReference') out.push(e);
          return true;
        });
      }
      return out;
    };
    const ns = refs(n);
    refs(o).forEach((r, k) => {
      if (ns[k]) this.pairNote(r, ns[k]);
    });
  }

  /** Atoms the comparison found equal (their keys without text box content): notes pair, text boxes are compared. */
  private pairAtoms(o: XmlElement, n: XmlElement): void {
    this.pairNote(o, n);
    this.pairTextBoxes(o, n);
  }

  /**
   * The text boxes of a drawing or shape (w:txbxContent in DrawingML or VML) compared like any
   * other story, block by block and word by word. An mc:Fallback copy of newer's box is then made
   * consistent with the marked-up Choice (Plan.syncFallbacks).
   */
  private pairTextBoxes(o: XmlElement, n: XmlElement): void {
    if (!this.ctx.textBoxes || (!n.name.startsWith('w:') && n.name !== 'mc:AlternateContent')) return;
    const ob = textBoxesOf(o);
    const nb = textBoxesOf(n);
    if (ob.length === 0 || ob.length !== nb.length) return;
    ob.forEach((box, k) => this.container(this.ctx.older.blocks(box), this.ctx.newer.blocks(nb[k]!), nb[k]!));
    this.ctx.plan.boxOwners.add(n);
  }

  private pairNote(o: XmlElement, n: XmlElement): void {
    if (o.name !== n.name) return;
    this.ctx.notePairs.set(`${o.name}:${o.attr('w:id')}`, n.attr('w:id') ?? '');
  }

  /** Finds moves among the whole paragraphs deleted and inserted, then plans those deletions and insertions. */
  finish(): void {
    const byKey = new Map<number, Para[]>();
    for (const p of this.insertions) {
      if (!this.ctx.moves || !movable(p, this.ctx.newer)) continue;
      const list = byKey.get(p.hash);
      if (list) list.push(p);
      else byKey.set(p.hash, [p]);
    }
    const movedTo = new Map<Para, string>();
    const movedFrom = new Map<Block, string>();
    for (const d of this.deletions) {
      for (const blk of d.blocks) {
        if (blk.kind !== 'p') continue;
        const candidates = byKey.get(blk.hash);
        const target = candidates?.shift();
        if (!target) continue;
        const name = `comparison-move-${++this.moveCount}`;
        movedFrom.set(blk, name);
        movedTo.set(target, name);
      }
    }
    for (const d of this.deletions) {
      for (const blk of d.blocks) this.place(amongControls(d.anchor, blockElement(blk)), this.deletedBlock(blk, movedFrom.get(blk) ?? null));
    }
    for (const p of this.insertions) this.insertParagraph(p, movedTo.get(p) ?? null);
    this.finishPassages();
  }

  /**
   * A passage of at least a sentence deleted in one place and inserted word for word in another
   * is a move: w:moveFrom and w:moveTo inside their range markers, one change in the listing.
   * A whole deleted span inserted whole elsewhere moves as one; otherwise each sentence of a
   * deleted span found among the sentences of an inserted one (with new words around it, or old
   * words deleted around it) moves on its own, and the words around it stay deleted or inserted.
   */
  private finishPassages(): void {
    type Ins = (typeof this.spanInsertions)[number];
    type Del = (typeof this.spanDeletions)[number];
    const whole = new Map<string, Ins[]>();
    // Without moves nothing inserted is a candidate, so every passage stays deleted and inserted.
    const candidates = this.ctx.moves ? this.spanInsertions : [];
    for (const s of candidates) {
      const key = passageText(s.tokens);
      if (key !== null) whole.set(key, [...(whole.get(key) ?? []), s]);
    }
    const wholeMoves = new Map<Del, Ins>();
    const taken = new Set<Ins>();
    for (const d of this.spanDeletions) {
      const key = passageText(d.tokens);
      const target = key === null ? undefined : whole.get(key)?.find((x) => !taken.has(x));
      if (!target) continue;
      wholeMoves.set(d, target);
      taken.add(target);
    }
    // Sentences of the inserted spans not moved whole, by text.
    const sentencesIn = new Map<string, { span: Ins; from: number; to: number }[]>();
    for (const s of candidates) {
      if (taken.has(s)) continue;
      for (const [from, to] of sentences(s.tokens)) {
        const key = textOf(s.tokens, from, to);
        sentencesIn.set(key, [...(sentencesIn.get(key) ?? []), { span: s, from, to }]);
      }
    }
    const movesTo = new Map<Ins, { from: number; to: number; name: string }[]>();
    for (const d of this.spanDeletions) {
      const target = wholeMoves.get(d);
      if (target) {
        const name = `comparison-move-${++this.moveCount}`;
        this.moveFrom(d, 0, d.tokens.length, name);
        movesTo.set(target, [{ from: 0, to: target.tokens.length, name }]);
        continue;
      }
      let at = 0;
      for (const [from, to] of sentences(d.tokens)) {
        const found = sentencesIn.get(textOf(d.tokens, from, to))?.shift();
        if (!found) continue;
        const name = `comparison-move-${++this.moveCount}`;
        // White space alone between moves (or before the first) goes with the move: no change of its own.
        const start = onlySpace(d.tokens, at, from) ? at : from;
        if (start > at) for (const ins of this.deletedStream(d.tokens.slice(at, start), 'w:del')) d.place(ins);
        const end = onlySpace(d.tokens, to, d.tokens.length) ? d.tokens.length : to;
        this.moveFrom(d, start, end, name);
        at = end;
        const list = movesTo.get(found.span) ?? [];
        list.push({ from: found.from, to: found.to, name });
        movesTo.set(found.span, list);
      }
      if (at < d.tokens.length) for (const ins of this.deletedStream(d.tokens.slice(at), 'w:del')) d.place(ins);
    }
    for (const s of this.spanInsertions) {
      const moves = (movesTo.get(s) ?? []).sort((x, y) => x.from - y.from).map((m) => ({ ...m, markers: this.ctx.rw.rangeMarkers('moveTo', m.name) }));
      moves.forEach((m, k) => {
        const prevEnd = k > 0 ? moves[k - 1]!.to : 0;
        if (onlySpace(s.tokens, prevEnd, m.from)) m.from = prevEnd;
        if (k === moves.length - 1 && onlySpace(s.tokens, m.to, s.tokens.length)) m.to = s.tokens.length;
      });
      let k = 0;
      s.tokens.forEach((t, i) => {
        const move = moves[k];
        if (move && i === move.from) this.moveRangeAt(s, i, move.markers[0]);
        this.insertToken(t, move && i >= move.from && i < move.to ? { kind: 'moveTo' } : { kind: 'ins' });
        if (move && i === move.to - 1) {
          this.moveRangeAt(s, i + 1, move.markers[1]);
          k++;
        }
      });
    }
    this.spanDeletions = [];
    this.spanInsertions = [];
  }

  /** Deleted tokens [from, to) of a span become the source of move `name`, inside its range markers. */
  private moveFrom(d: (typeof this.spanDeletions)[number], from: number, to: number, name: string): void {
    const [start, end] = this.ctx.rw.rangeMarkers('moveFrom', name);
    d.place({ kind: 'content', nodes: [start] });
    for (const ins of this.deletedStream(d.tokens.slice(from, to), 'w:moveFrom')) d.place(ins);
    d.place({ kind: 'content', nodes: [end] });
  }

  /** A moveTo range marker before token `i` of an inserted span (after its last token when `i` is its length). */
  private moveRangeAt(s: (typeof this.spanInsertions)[number], i: number, marker: XmlElement): void {
    const ins: Insertion = { kind: 'content', nodes: [marker] };
    if (i < s.tokens.length) placeBefore(this.ctx.plan, s.tokens[i]!, ins);
    else s.after(ins);
  }

  private insertToken(t: Token, status: Status): void {
    if (t.kind === 'mark') this.ctx.plan.marks.set(lastPart(t.para!), 'ins');
    else setStatus(this.ctx.plan, t, status);
  }

  // ---- hunks -------------------------------------------------------------------------------

  /** `anchor`: where newer goes on after the stretch (what deleted blocks at its end stand before). */
  private hunk(olds: Block[], news: Block[], anchor: Anchor): void {
    if (news.length === 0) {
      this.deletions.push({ blocks: olds, anchor });
      return;
    }
    if (olds.length === 0) {
      for (const n of news) this.insertBlock(n);
      return;
    }
    // Tables pair with the most similar tables, in order; the stretches between pairs are compared on their own.
    const oldTables = olds.filter((x) => x.kind === 'tbl') as Table[];
    const newTables = news.filter((x) => x.kind === 'tbl') as Table[];
    const pairs = alignBySimilarity(oldTables.map((t) => this.ctx.older.keyOf(t)), newTables.map((t) => this.ctx.newer.keyOf(t)), 0.3);
    let i = 0;
    let j = 0;
    for (const [pi, pj] of [...pairs, [-1, -1] as [number, number]]) {
      const i2 = pi >= 0 ? olds.indexOf(oldTables[pi]!) : olds.length;
      const j2 = pj >= 0 ? news.indexOf(newTables[pj]!) : news.length;
      const next = j2 < news.length ? anchorAt(news, j2, anchorContainer(anchor)) : anchor;
      this.stretch(olds.slice(i, i2), news.slice(j, j2), next);
      if (pi >= 0) this.table(oldTables[pi]!, newTables[pj]!);
      i = i2 + 1;
      j = j2 + 1;
    }
  }

  /**
   * A stretch of blocks without paired tables. Its paragraphs are compared as one stream; where
   * unpaired tables cut either side into runs of paragraphs, the two most similar runs are
   * compared and the rest is deleted or inserted around them, in order.
   */
  private stretch(olds: Block[], news: Block[], anchor: Anchor): void {
    if (news.length === 0) {
      if (olds.length) this.deletions.push({ blocks: olds, anchor });
      return;
    }
    if (olds.length === 0) {
      for (const n of news) this.insertBlock(n);
      return;
    }
    const oldRuns = paragraphRuns(olds);
    const newRuns = paragraphRuns(news);
    if (oldRuns.length === 1 && newRuns.length === 1 && oldRuns[0]!.length === olds.length && newRuns[0]!.length === news.length) {
      this.paragraphs(olds as Para[], news as Para[]);
      return;
    }
    // A paragraph that ends its container or stands before a table keeps its mark: if the stretch
    // ends with one, that run must be the one compared (its mark cannot be marked inserted).
    const lastNew = news[news.length - 1]!;
    const markStays = lastNew.kind === 'p' && !('before' in anchor && anchor.before.name === 'w:p');
    const candidates = markStays ? newRuns.slice(-1) : newRuns;
    let best: [Para[], Para[]] | null = null;
    let bestScore = -1;
    for (const ro of oldRuns) {
      for (const rn of candidates) {
        const score = similarity(ro.map((p) => this.ctx.older.keyOf(p)).join(' '), rn.map((p) => this.ctx.newer.keyOf(p)).join(' '));
        if (score > bestScore) [best, bestScore] = [[ro, rn], score];
      }
    }
    if (!best) {
      // Deleted before the first newer block in the same content controls (a deleted table put
      // into the control before its own would keep a paragraph after it there when rejected).
      const path = controlPath(olds[0]!);
      const at = Math.max(0, news.findIndex((n) => controlPath(n) === path));
      this.deletions.push({ blocks: olds, anchor: anchorAt(news, at, anchorContainer(anchor)) });
      for (const n of news) this.insertBlock(n);
      return;
    }
    const [ro, rn] = best;
    const oFrom = olds.indexOf(ro[0]!);
    const oTo = oFrom + ro.length;
    const nFrom = news.indexOf(rn[0]!);
    const nTo = nFrom + rn.length;
    if (oFrom > 0) this.deletions.push({ blocks: olds.slice(0, oFrom), anchor: { before: rn[0]!.parts[0]! } });
    if (oTo < olds.length) this.deletions.push({ blocks: olds.slice(oTo), anchor: { after: lastPart(rn[rn.length - 1]!) } });
    news.forEach((n, k) => {
      if (k < nFrom || k >= nTo) this.insertBlock(n);
    });
    this.paragraphs(ro, rn);
  }

  private insertBlock(b: Block): void {
    if (b.kind === 'p') this.insertions.push(b);
    else this.insertTable(b);
  }

  // ---- paragraphs --------------------------------------------------------------------------

  /** Older paragraphs against newer ones as one stream of words and paragraph marks. */
  paragraphs(olds: Para[], news: Para[]): void {
    if (olds.length === news.length && olds.length > 1) {
      // As many paragraphs on each side: no mark came or went, so they pair one to one (and a
      // sentence carried over to the next paragraph is still found, as a passage move).
      olds.forEach((o, k) => this.paragraphs([o], [news[k]!]));
      return;
    }
    if (olds.length !== news.length && crossesControlEdge(olds, news)) {
      this.acrossControls(olds, news);
      return;
    }
    if (olds.length === 1 && news.length === 1 && crossesControlEdge(olds, news) && this.replacedAcrossControls(olds[0]!, news[0]!)) return;
    const { older, newer, plan, interner } = this.ctx;
    // Common beginning of the first paragraphs and common end of the last ones are compared for
    // formatting only; the words between are tokenised and diffed (most edits touch a few words).
    const oFirst = older.flat(olds[0]!).text;
    const nFirst = newer.flat(news[0]!).text;
    const oLast = older.flat(olds[olds.length - 1]!).text;
    const nLast = newer.flat(news[news.length - 1]!).text;
    const head = commonPrefix(oFirst, nFirst);
    // Where one side is a single paragraph, its beginning and end must not overlap.
    const tail = commonSuffix(oLast, nLast, olds.length === 1 ? head : 0, news.length === 1 ? head : 0);
    this.formatRange(olds[0]!, news[0]!, 0, 0, head);
    this.formatRange(olds[olds.length - 1]!, news[news.length - 1]!, oLast.length - tail, nLast.length - tail, tail);
    const oldToks = streamOf(olds, older, head, oLast.length - tail);
    const newToks = streamOf(news, newer, head, nLast.length - tail);
    const hunks = absorbSmallEqualities(
      diffSequences(oldToks.map((t) => interner.id(t.key)), newToks.map((t) => interner.id(t.key))),
      oldToks,
    );
    for (const h of hunks) {
      if (h.equal) {
        for (let k = 0; k < h.aEnd - h.aStart; k++) this.matched(oldToks[h.aStart + k]!, newToks[h.bStart + k]!);
        continue;
      }
      const lastNew = news[news.length - 1]!;
      const endAt = nLast.length - tail;
      const at = (k: number) => (ins: Insertion): void => {
        const where = newToks[k];
        if (where) placeBefore(plan, where, ins);
        else this.placeAt(lastNew, endAt, ins);
      };
      if (h.aEnd > h.aStart) {
        const deleted = oldToks.slice(h.aStart, h.aEnd);
        if (sentences(deleted).length) this.spanDeletions.push({ tokens: deleted, place: at(h.bStart) });
        else for (const ins of this.deletedStream(deleted, 'w:del')) at(h.bStart)(ins);
      }
      const inserted = newToks.slice(h.bStart, h.bEnd);
      if (sentences(inserted).length) this.spanInsertions.push({ tokens: inserted, before: at(h.bStart), after: at(h.bEnd) });
      else {
        for (const t of inserted) {
          if (t.kind === 'mark') plan.marks.set(lastPart(t.para!), 'ins');
          else setStatus(plan, t, { kind: 'ins' });
        }
      }
    }
    // The last marks always pair: the stretch ends where both versions go on alike.
    this.properties(olds[olds.length - 1]!, news[news.length - 1]!);
    // The plan holds what it needs; the flat texts and tokens of a 300-page document add up.
    for (const p of [...olds, ...news]) p.flat = p.tokens = undefined;
  }


  /**
   * A stream that runs across a content control's edge. A mark inserted or deleted there joins
   * wherever the engine's join rules send it (a paragraph before a control does not join into
   * it; a control's only paragraph stays), which need not be the side the other version had it
   * on. So the stream is cut at the edges into runs of paragraphs in the same controls; runs in
   * the same controls pair (each ends at an edge with its mark kept, which the engine decides
   * exactly) and the others go whole. If the runs do not pair alike, every paragraph but the
   * last goes whole and the last ones pair.
   */
  private acrossControls(olds: Para[], news: Para[]): void {
    const oRuns = controlRuns(olds);
    const nRuns = controlRuns(news);
    const key = (run: Para[]): number => this.ctx.interner.id(`controls@${controlPath(run[0]!)}`);
    const hunks = diffSequences(oRuns.map(key), nRuns.map(key));
    const lastPairs = hunks.length > 0 && hunks[hunks.length - 1]!.equal;
    // Pairing runs by their controls is right when the last runs pair (the stream ends where both
    // versions go on alike), and otherwise when pairing only the last paragraphs would insert a
    // paragraph whose mark the engine cannot take away where it stands (before a control it is
    // not in, as the last of its control) and pairing the runs inserts none such: a control
    // nested at the start of the other version's control holds the new paragraphs, say.
    const byRuns =
      hunks.some((h) => h.equal) &&
      (lastPairs || endsDeletingOnly(hunks) || (this.stuckMarks(runsInserted(hunks, nRuns)) === 0 && !endsDeletingAfterInserted(hunks)));
    if (byRuns) {
      for (const h of hunks) {
        if (h.equal) {
          for (let k = 0; k < h.aEnd - h.aStart; k++) this.paragraphs(oRuns[h.aStart + k]!, nRuns[h.bStart + k]!);
          continue;
        }
        // Unequal runs: deleted before the next run (after the last one at the stream's end), inserted whole.
        const deleted = oRuns.slice(h.aStart, h.aEnd).flat();
        const next = nRuns[h.bEnd];
        const anchor: Anchor = next ? { before: next[0]!.parts[0]! } : { after: lastPart(news[news.length - 1]!) };
        if (deleted.length) this.deletions.push({ blocks: deleted, anchor });
        for (const n of nRuns.slice(h.bStart, h.bEnd).flat()) this.insertBlock(n);
      }
      return;
    }
    const oLast = olds[olds.length - 1]!;
    const nLast = news[news.length - 1]!;
    if (olds.length > 1) this.deletions.push({ blocks: olds.slice(0, -1), anchor: { before: news[0]!.parts[0]! } });
    for (const n of news.slice(0, -1)) this.insertBlock(n);
    this.paragraphs([oLast], [nLast]);
  }

  /**
   * One paragraph for another in other controls: the older one deleted and the newer one
   * inserted, each in its own controls (paired, the older one's mark would come back in newer's),
   * where rejecting can take the newer one's mark away. The same paragraph pairs: in the
   * untracked check a control whose boundary newer inserted is around its paragraphs in newer's
   * tree and not in its rejected view.
   */
  private replacedAcrossControls(o: Para, n: Para): boolean {
    if (o.hash === n.hash || this.stuckMarks([n]) > 0) return false;
    this.deletions.push({ blocks: [o], anchor: fittingAnchor([{ before: n.parts[0]! }, { after: lastPart(n) }], blockElement(o)) });
    this.insertBlock(n);
    return true;
  }

  /**
   * How many runs of newer paragraphs in the same controls (of `inserted`, each inserted whole)
   * would end with a mark that rejecting cannot take away: no paragraph follows the run's last in
   * its container (a control, a table or the container's end does), and none without a change of
   * mark stands before its first for the change to move to (Plan.writeMarks). The engine neither
   * joins a paragraph into a control nor across one (joins.ts), so such a paragraph stays, empty.
   */
  private stuckMarks(inserted: readonly Para[]): number {
    const planned = new Set(inserted.map(lastPart));
    let stuck = 0;
    for (const run of controlRuns(inserted)) {
      if (blockAfter(lastPart(run[run.length - 1]!))?.name === 'w:p') continue;
      const before = blockBefore(run[0]!.parts[0]!);
      if (before?.name !== 'w:p' || planned.has(before)) stuck++;
    }
    return stuck;
  }

  /**
   * A copy of older's run properties for the plan (one per original, so equal formatting still
   * groups): the plan keeps nothing of older's tree, which is collected before newer is written.
   */
  private detached(rPr: XmlElement | null): XmlElement | null {
    if (!rPr) return null;
    let copy = this.copies.get(rPr);
    if (!copy) this.copies.set(rPr, (copy = rPr.cloneDeep()));
    return copy;
  }

  /** Puts an insertion at a position of a newer paragraph's flat text. */
  private placeAt(p: Para, at: number, ins: Insertion): void {
    const { segs, text } = this.ctx.newer.flat(p);
    const seg = at < text.length ? segs.find((sg) => sg.start <= at && at < sg.start + sg.text.length) : undefined;
    if (!seg) this.ctx.plan.end(lastPart(p), ins);
    else if (seg.kind === 'text') this.ctx.plan.before(seg.node, at - seg.start, at - seg.start, ins);
    else this.ctx.plan.before(seg.node, 0, 0, ins);
  }

  /** Equal text of an older and a newer paragraph ([oFrom, +len) and [nFrom, +len)): formatting changes become rPrChanges. */
  private formatRange(o: Para, n: Para, oFrom: number, nFrom: number, len: number): void {
    if (len <= 0) return;
    const os = this.ctx.older.flat(o).segs;
    const ns = this.ctx.newer.flat(n).segs;
    const atoms = (segs: readonly Segment[], from: number): XmlElement[] =>
      segs.filter((sg) => sg.kind === 'atom' && sg.start >= from && sg.start < from + len).map((sg) => sg.node);
    const oa = atoms(os, oFrom);
    atoms(ns, nFrom).forEach((el, i) => this.pairAtoms(oa[i]!, el));
    let k = 0;
    for (const sg of ns) {
      if (sg.kind !== 'text') continue;
      const from = Math.max(sg.start, nFrom);
      const to = Math.min(sg.start + sg.text.length, nFrom + len);
      if (to <= from) continue;
      const newKey = this.ctx.newer.runKey(sg.run!);
      for (let at = from; at < to; ) {
        const oAt = at - nFrom + oFrom;
        while (k < os.length && os[k]!.start + os[k]!.text.length <= oAt) k++;
        const og = os[k];
        if (!og) break;
        const stop = Math.min(to, og.start + og.text.length - oFrom + nFrom);
        if (og.kind === 'text' && this.ctx.older.runKey(og.run!) !== newKey) {
          this.ctx.plan.setStatus(sg.node, at - sg.start, stop - sg.start, { kind: 'format', old: this.detached(og.run!.first('w:rPr')) });
        }
        at = stop;
      }
    }
  }

  private matched(o: Token, n: Token): void {
    const { plan } = this.ctx;
    if (o.kind === 'mark') {
      this.properties(o.para!, n.para!);
      return;
    }
    if ((o.kind !== 'text' && o.kind !== 'atom') || !o.run) return;
    if (o.kind === 'atom') this.pairAtoms(o.pieces[0]!.node, n.pieces[0]!.node);
    const oldKey = this.ctx.older.runKey(o.run);
    for (const piece of n.pieces) {
      const run = piece.node.parent;
      if (!run || this.ctx.newer.runKey(run) === oldKey) continue;
      plan.setStatus(piece.node, piece.from, piece.to, { kind: 'format', old: this.detached(o.run.first('w:rPr')) });
    }
  }

  private properties(o: Para, n: Para): void {
    const op = lastPart(o);
    const np = lastPart(n);
    if (this.ctx.older.paragraphKey(op) === this.ctx.newer.paragraphKey(np)) return;
    // Older's properties are older's package's: its numbering is carried over (import.ts).
    const change = recordParagraphProperties(np, op, this.ctx.rw);
    if (change) this.ctx.importer.adopt(change, this.ctx.olderPart, this.ctx.newerPart);
  }

  /** Older tokens turned into what goes into newer: deleted runs, and splits where an older mark was. */
  private deletedStream(tokens: readonly Token[], wrapper: 'w:del' | 'w:moveFrom'): Insertion[] {
    const { rw, importer, olderPart, newerPart } = this.ctx;
    const out: Insertion[] = [];
    let del: XmlElement | null = null;
    /** The run being filled: its source, its copy, and the text element and offset its last delText ends at. */
    let run: { src: XmlElement; el: XmlElement; from: XmlElement | null; to: number } | null = null;
    let nodes: XmlElement[] = [];
    const flush = (): void => {
      if (nodes.length) out.push({ kind: 'content', nodes });
      nodes = [];
      del = null;
      run = null;
    };
    const ensureDel = (): XmlElement => {
      if (!del) {
        del = rw.element(wrapper);
        nodes.push(del);
      }
      return del;
    };
    for (const t of tokens) {
      if (t.kind === 'mark') {
        flush();
        const oldParagraph = propertiesOnly(lastPart(t.para!));
        importer.adopt(oldParagraph, olderPart, newerPart);
        out.push({ kind: 'split', oldParagraph });
        continue;
      }
      if (t.kind === 'unit') {
        run = null;
        const copy = t.unit!.cloneDeep();
        toDeletedText(copy);
        // Adopted below with the rest of the deleted content, once: adopting twice would map
        // newer's relationship, numbering and note ids again as if they were older's.
        if (copy.name === 'w:hyperlink' || copy.name === 'w:fldSimple') {
          copy.setChildren([rw.element(wrapper, [...copy.children])]);
          del = null;
          nodes.push(copy);
        } else ensureDel().append(copy);
        continue;
      }
      for (const piece of t.pieces) {
        const src = piece.node.parent!;
        if (!run || run.src !== src) {
          const el = src.cloneShallow();
          const rPr = src.first('w:rPr');
          if (rPr) el.append(rPr.cloneDeep());
          run = { src, el, from: null, to: -1 };
          ensureDel().append(el);
        }
        if (t.kind === 'text') {
          // The words and spaces of one text element deleted together become one w:delText.
          const last = run.el.children[run.el.children.length - 1];
          const text = elementText(piece.node).slice(piece.from, piece.to);
          if (last?.kind === 1 && last.name === 'w:delText' && run.from === piece.node && run.to === piece.from) {
            last.setChildren([new XmlText(elementText(last) + text)]);
          } else run.el.append(XmlElement.create('w:delText', { 'xml:space': 'preserve' }, [new XmlText(text)]));
          run.from = piece.node;
          run.to = piece.to;
        } else {
          run.from = null;
          const copy = piece.node.cloneDeep();
          toDeletedText(copy);
          run.el.append(copy);
        }
      }
    }
    flush();
    const kept: Insertion[] = [];
    for (const ins of out) {
      if (ins.kind === 'split') kept.push(ins);
      else {
        for (const n of ins.nodes) importer.adopt(n, olderPart, newerPart);
        const nodes = ins.nodes.filter((n) => n.elements().length > 0);
        if (nodes.length) kept.push({ kind: 'content', nodes });
      }
    }
    return kept;
  }

  /** A whole paragraph of newer inserted (or the destination of a move). */
  private insertParagraph(p: Para, moveName: string | null): void {
    const { plan, newer, rw } = this.ctx;
    const status: Status = moveName ? { kind: 'moveTo' } : { kind: 'ins' };
    for (const t of newer.tokens(p)) setStatus(plan, t, status);
    const last = lastPart(p);
    plan.marks.set(last, moveName ? 'moveTo' : 'ins');
    if (moveName) {
      const [start, end] = rw.rangeMarkers('moveTo', moveName);
      plan.moveRanges.set(p.parts[0]!, { ...plan.moveRanges.get(p.parts[0]!), start });
      plan.moveRanges.set(last, { ...plan.moveRanges.get(last), end });
      plan.touchParagraph(p.parts[0]!);
      plan.touchParagraph(last);
    }
  }

  /** A copy of an older block made deleted content (or the source of a move), for newer's tree. */
  private deletedBlock(b: Block, moveName: string | null): XmlElement {
    const { rw, importer, olderPart, newerPart, plan } = this.ctx;
    if (b.kind === 'tbl') {
      const copy = b.el.cloneDeep();
      plan.fromOlder.add(copy);
      importer.adopt(copy, olderPart, newerPart);
      deleteTableContent(copy, rw);
      return copy;
    }
    const copy = lastPart(b).cloneDeep();
    plan.fromOlder.add(copy);
    importer.adopt(copy, olderPart, newerPart);
    deleteParagraphContent(copy, rw, moveName ? 'w:moveFrom' : 'w:del');
    if (moveName) {
      const [start, end] = rw.rangeMarkers('moveFrom', moveName);
      const pPr = copy.first('w:pPr');
      copy.insertAt(pPr ? 1 : 0, start);
      copy.append(end);
    }
    plan.marks.set(copy, moveName ? 'moveFrom' : 'del');
    return copy;
  }

  private place(anchor: Anchor, el: XmlElement): void {
    if ('before' in anchor) anchor.before.parent!.insertBefore(el, anchor.before);
    else if ('after' in anchor) {
      const ref = this.afterAnchors.get(anchor.after) ?? anchor.after;
      ref.parent!.insertAfter(el, ref);
      this.afterAnchors.set(anchor.after, el);
    } else {
      const c = anchor.end;
      const sectPr = c.name === 'w:body' ? c.first('w:sectPr') : null;
      if (sectPr) c.insertBefore(el, sectPr);
      else c.append(el);
    }
  }

  // ---- tables ------------------------------------------------------------------------------

  private insertTable(t: Table): void {
    for (const row of t.rows) this.insertRow(row);
  }

  private insertRow(row: Row): void {
    markRow(row.el, 'ins', this.ctx.rw);
    for (const cell of row.cells) this.insertCellContent(cell);
  }

  private insertCellContent(cell: Cell): void {
    for (const b of cell.blocks) {
      if (b.kind === 'tbl') for (const r of b.rows) for (const c of r.cells) this.insertCellContent(c);
      else for (const t of this.ctx.newer.tokens(b)) setStatus(this.ctx.plan, t, { kind: 'ins' });
    }
  }

  /**
   * Formatting of a table, row or cell whose counterpart was paired: where newer's properties
   * differ from older's, a w:tblPrChange, w:trPrChange or w:tcPrChange records older's.
   */
  private formatting(o: XmlElement, n: XmlElement, holder: TableHolder): void {
    if (this.ctx.older.formattingKey(o, holder) !== this.ctx.newer.formattingKey(n, holder)) recordTableProperties(n, o, holder, this.ctx.rw);
  }

  /** A table whose content is the same (equal hashes: as many rows and cells): only its formatting may differ. */
  private sameTable(o: Table, n: Table): void {
    this.formatting(o.el, n.el, 'w:tblPr');
    o.rows.forEach((r, k) => this.sameRow(r, n.rows[k]!));
  }

  private sameRow(o: Row, n: Row): void {
    this.formatting(o.el, n.el, 'w:trPr');
    o.cells.forEach((c, k) => {
      const nc = n.cells[k]!;
      this.formatting(c.el, nc.el, 'w:tcPr');
      c.blocks.forEach((b, i) => {
        const nb = nc.blocks[i]!;
        if (b.kind === 'tbl' && nb.kind === 'tbl') this.sameTable(b, nb);
      });
    });
  }

  private table(o: Table, n: Table): void {
    this.formatting(o.el, n.el, 'w:tblPr');
    const a = o.rows.map((r) => r.hash);
    const b = n.rows.map((r) => r.hash);
    for (const h of diffSequences(a, b)) {
      if (h.equal) {
        for (let k = h.aStart; k < h.aEnd; k++) this.sameRow(o.rows[k]!, n.rows[k - h.aStart + h.bStart]!);
        continue;
      }
      const olds = o.rows.slice(h.aStart, h.aEnd);
      const news = n.rows.slice(h.bStart, h.bEnd);
      const pairs = alignBySimilarity(olds.map((r) => this.ctx.older.keyOf(r)), news.map((r) => this.ctx.newer.keyOf(r)), 0.4);
      let i = 0;
      let j = 0;
      const flushDeleted = (upto: number, before: number): void => {
        for (; i < upto; i++) {
          const copy = olds[i]!.el.cloneDeep();
          this.ctx.plan.fromOlder.add(copy);
          this.ctx.importer.adopt(copy, this.ctx.olderPart, this.ctx.newerPart);
          deleteRowContent(copy, this.ctx.rw);
          const ref = news[before]?.el ?? n.rows[h.bEnd]?.el;
          if (ref) ref.parent!.insertBefore(copy, ref);
          else this.place({ after: n.rows[n.rows.length - 1]?.el ?? n.el }, copy);
        }
      };
      for (const [pi, pj] of pairs) {
        flushDeleted(pi, j);
        for (; j < pj; j++) this.insertRow(news[j]!);
        this.row(olds[pi]!, news[pj]!);
        i = pi + 1;
        j = pj + 1;
      }
      flushDeleted(olds.length, j);
      for (; j < news.length; j++) this.insertRow(news[j]!);
    }
  }

  private row(o: Row, n: Row): void {
    this.formatting(o.el, n.el, 'w:trPr');
    if (o.cells.length === n.cells.length) {
      o.cells.forEach((c, k) => this.cell(c, n.cells[k]!));
      return;
    }
    const pairs = alignBySimilarity(o.cells.map((c) => this.ctx.older.keyOf(c)), n.cells.map((c) => this.ctx.newer.keyOf(c)), 0.3);
    let i = 0;
    let j = 0;
    const flushDeleted = (upto: number): void => {
      for (; i < upto; i++) {
        const copy = o.cells[i]!.el.cloneDeep();
        this.ctx.plan.fromOlder.add(copy);
        this.ctx.importer.adopt(copy, this.ctx.olderPart, this.ctx.newerPart);
        for (const p of paragraphsIn(copy)) deleteParagraphContent(p, this.ctx.rw, 'w:del');
        markCell(copy, 'cellDel', this.ctx.rw);
        const ref = n.cells[j]?.el;
        if (ref) ref.parent!.insertBefore(copy, ref);
        else this.place({ after: n.cells[n.cells.length - 1]!.el }, copy);
      }
    };
    const insertCell = (c: Cell): void => {
      markCell(c.el, 'cellIns', this.ctx.rw);
      this.insertCellContent(c);
    };
    for (const [pi, pj] of pairs) {
      flushDeleted(pi);
      for (; j < pj; j++) insertCell(n.cells[j]!);
      this.cell(o.cells[pi]!, n.cells[pj]!);
      i = pi + 1;
      j = pj + 1;
    }
    flushDeleted(o.cells.length);
    for (; j < n.cells.length; j++) insertCell(n.cells[j]!);
  }

  private cell(o: Cell, n: Cell): void {
    this.formatting(o.el, n.el, 'w:tcPr');
    this.container(o.blocks, n.blocks, n.el);
  }
}

// ---- helpers --------------------------------------------------------------------------------

/** The maximal runs of consecutive paragraphs (non-empty) between the tables of a stretch. */
function paragraphRuns(blocks: readonly Block[]): Para[][] {
  const out: Para[][] = [];
  let run: Para[] = [];
  for (const b of blocks) {
    if (b.kind === 'p') run.push(b);
    else {
      if (run.length) out.push(run);
      run = [];
    }
  }
  if (run.length) out.push(run);
  return out;
}

/**
 * Whether the paragraphs of a stream do not all stand in the same content controls: on either
 * side two of them in different controls, or the two sides nested in controls to different depths.
 */
function crossesControlEdge(olds: readonly Para[], news: readonly Para[]): boolean {
  const chainsOf = (ps: readonly Para[]): XmlElement[][] => ps.map((p) => controlsAround(lastPart(p)));
  const same = (a: readonly XmlElement[], b: readonly XmlElement[]): boolean => a.length === b.length && a.every((x, k) => x === b[k]);
  const o = chainsOf(olds);
  const n = chainsOf(news);
  return o.some((c) => !same(c, o[0]!)) || n.some((c) => !same(c, n[0]!)) || o[0]!.length !== n[0]!.length;
}

/** The newer paragraphs of a run diff's unequal hunks: those inserted whole. */
function runsInserted(hunks: readonly Hunk[], nRuns: readonly Para[][]): Para[] {
  return hunks.filter((h) => !h.equal).flatMap((h) => nRuns.slice(h.bStart, h.bEnd).flat());
}

/** Whether the last hunk of a run diff deletes runs after newer's last run, and inserts none. */
function endsDeletingOnly(hunks: readonly Hunk[]): boolean {
  const last = hunks[hunks.length - 1];
  return !!last && !last.equal && last.aEnd > last.aStart && last.bEnd === last.bStart;
}

/** Whether the last hunk of a run diff deletes runs after newer's last, itself inserted (their marks would go with nothing unchanged before them). */
function endsDeletingAfterInserted(hunks: readonly Hunk[]): boolean {
  const last = hunks[hunks.length - 1];
  return !!last && !last.equal && last.aEnd > last.aStart && last.bEnd > last.bStart;
}

/** The block before `block` in its container (range markers and properties passed over), as joins.ts reads it. */
function blockBefore(block: XmlElement): XmlElement | null {
  const kids = block.parent!.children;
  for (let i = kids.indexOf(block) - 1; i >= 0; i--) {
    const k = kids[i]!;
    if (k.kind === 1 && !MARKERS_BETWEEN_BLOCKS.test(k.name) && !k.name.endsWith('Pr')) return k;
  }
  return null;
}
const MARKERS_BETWEEN_BLOCKS = /^w:(?:bookmark(?:Start|End)|commentRange(?:Start|End)|move(?:From|To)Range(?:Start|End)|perm(?:Start|End)|proofErr|customXml(?:Ins|Del|MoveFrom|MoveTo)Range(?:Start|End))$/;

/** The maximal runs of consecutive paragraphs in the same content controls. */
function controlRuns(paras: readonly Para[]): Para[][] {
  const out: Para[][] = [];
  let path: string | null = null;
  for (const p of paras) {
    const here = controlPath(p);
    if (here !== path) out.push([]);
    out[out.length - 1]!.push(p);
    path = here;
  }
  return out;
}

function lastPart(p: Para): XmlElement {
  return p.parts[p.parts.length - 1]!;
}

/** A detached paragraph holding only a copy of `p`'s paragraph properties (what a split-off paragraph takes). */
function propertiesOnly(p: XmlElement): XmlElement {
  const pPr = p.first('w:pPr');
  return XmlElement.create('w:p', {}, pPr ? [pPr.cloneDeep()] : []);
}

/** Minimal length of a passage that may count as moved: about a sentence. */
const MIN_PASSAGE_CHARS = 20;

/** The text of a token span if it is a passage of at least a sentence within one paragraph (else null). */
function passageText(tokens: readonly Token[]): string | null {
  if (tokens.some((t) => t.kind !== 'text')) return null;
  const text = tokens.map((t) => t.key).join('').trim();
  return text.length >= MIN_PASSAGE_CHARS && /\s/.test(text) && /[.!?;:]$/.test(text) ? text : null;
}

/**
 * The sentences of a token span that may count as moved on their own: [from, to) from a word to
 * the sentence's closing punctuation, text only, at least a sentence's length (MIN_PASSAGE_CHARS)
 * with more than one word.
 */
function sentences(tokens: readonly Token[]): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let chars = 0;
  let words = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'text') {
      start = -1;
      continue;
    }
    if (start < 0) {
      if (/^\s+$/.test(t.key)) continue;
      start = i;
      chars = 0;
      words = 0;
    }
    chars += t.key.length;
    if (isWordAt(t.key, 0)) words++;
    if (SENTENCE_END.test(t.key)) {
      if (chars >= MIN_PASSAGE_CHARS && words > 1) out.push([start, i + 1]);
      start = -1;
    }
  }
  return out;
}
const SENTENCE_END = /^[.!?;:]$/;

/** Whether tokens [from, to) are white space only (and not empty). */
function onlySpace(tokens: readonly Token[], from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (t.kind !== 'text' || !/^\s+$/.test(t.key)) return false;
  }
  return true;
}

function textOf(tokens: readonly Token[], from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += tokens[i]!.key;
  return s;
}

/** Tokens of consecutive paragraphs with a mark token between them: the first from `head`, the last up to `tailTo`. */
function streamOf(paras: readonly Para[], reader: StoryReader, head: number, tailTo: number): Token[] {
  const out: Token[] = [];
  paras.forEach((p, k) => {
    const last = k === paras.length - 1;
    out.push(...reader.tokens(p, k === 0 ? head : 0, last ? tailTo : Infinity));
    if (!last) out.push({ kind: 'mark', key: '\u0011', pieces: [], unit: null, run: null, para: p });
  });
  return out;
}

/** Length of the common beginning, ending on a token boundary in both. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i) && a[i] !== OVERFLOW_SYMBOL) i++;
  while (i > 0 && !(boundary(a, i) && boundary(b, i))) i--;
  return i;
}

/** Length of the common end, not reaching into the first `keepA` (`keepB`) characters, ending on a token boundary in both. */
function commonSuffix(a: string, b: string, keepA: number, keepB: number): number {
  const n = Math.min(a.length - keepA, b.length - keepB);
  let i = 0;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i) && a[a.length - 1 - i] !== OVERFLOW_SYMBOL) i++;
  while (i > 0 && !(boundary(a, a.length - i) && boundary(b, b.length - i))) i--;
  return i;
}

/** Whether a token may start at `i` (tokenisation on either side of it is then the same). */
function boundary(s: string, i: number): boolean {
  if (i <= 0 || i >= s.length) return true;
  const c = s.charCodeAt(i);
  if (c >= 0xdc00 && c <= 0xdfff) return false;
  if ((isWordAt(s, i - 1) || isApostrophe(s, i - 1)) && (isWordAt(s, i) || isApostrophe(s, i))) return false;
  return !(isSpaceAt(s, i - 1) && isSpaceAt(s, i));
}

function isApostrophe(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c === 39 || c === 0x2019;
}

function setStatus(plan: Plan, t: Token, status: Status): void {
  if (t.kind === 'unit') plan.setStatus(t.unit!, 0, 0, status);
  else for (const p of t.pieces) plan.setStatus(p.node, p.from, p.to, status);
}

function placeBefore(plan: Plan, t: Token, ins: Insertion): void {
  if (t.kind === 'mark') plan.end(lastPart(t.para!), ins);
  else if (t.kind === 'unit') plan.before(t.unit!, 0, 0, ins);
  else plan.before(t.pieces[0]!.node, t.pieces[0]!.from, t.pieces[0]!.to, ins);
}


function movable(p: Para, reader: StoryReader): boolean {
  const text = reader.tokens(p).filter((t) => t.kind === 'text').map((t) => t.key).join('').trim();
  return text.length >= MIN_MOVE_CHARS && /\s/.test(text);
}

/**
 * Merges two changed stretches separated only by white space or a lone punctuation mark, so a
 * rewritten phrase reads as one deletion and one insertion rather than word by word.
 */
function absorbSmallEqualities(hunks: Hunk[], oldToks: readonly Token[]): Hunk[] {
  const out: Hunk[] = [];
  for (let k = 0; k < hunks.length; k++) {
    const h = hunks[k]!;
    const prev = out[out.length - 1];
    const next = hunks[k + 1];
    if (h.equal && prev && !prev.equal && next && !next.equal && h.aEnd - h.aStart <= 1) {
      const t = oldToks[h.aStart]!;
      if (t.kind === 'text' && /^\s+$/.test(t.key)) {
        prev.aEnd = next.aEnd;
        prev.bEnd = next.bEnd;
        k++;
        continue;
      }
    }
    if (!h.equal && prev && !prev.equal) {
      prev.aEnd = h.aEnd;
      prev.bEnd = h.bEnd;
      continue;
    }
    out.push({ ...h });
  }
  return out;
}

/** Words of a key, for similarity. */
function wordsOf(key: string): Set<string> {
  return new Set(key.match(/[\p{L}\p{N}]+/gu) ?? []);
}

function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  if (wa.size === 0 && wb.size === 0) return 0.5;
  let common = 0;
  for (const w of wa) if (wb.has(w)) common++;
  return common / Math.max(1, wa.size + wb.size - common);
}

/** Pairs of (older index, newer index), in order, maximising total similarity above `threshold`. */
export function alignBySimilarity(olds: readonly string[], news: readonly string[], threshold: number): [number, number][] {
  const m = olds.length;
  const n = news.length;
  if (m === 0 || n === 0 || m * n > 40_000) return [];
  const score = new Float64Array((m + 1) * (n + 1));
  const sim = (i: number, j: number): number => similarity(olds[i]!, news[j]!);
  const sims = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) sims[i * n + j] = sim(i, j);
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      const s = sims[i * n + j]!;
      const take = s >= threshold ? s + score[(i + 1) * (n + 1) + j + 1]! : -1;
      score[i * (n + 1) + j] = Math.max(take, score[(i + 1) * (n + 1) + j]!, score[i * (n + 1) + j + 1]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < m && j < n) {
    const here = score[i * (n + 1) + j]!;
    const s = sims[i * n + j]!;
    if (s >= threshold && here === s + score[(i + 1) * (n + 1) + j + 1]!) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (here === score[(i + 1) * (n + 1) + j]!) i++;
    else j++;
  }
  return pairs;
}

function paragraphsIn(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  walk(el, (e) => {
    if (e.name === 'w:txbxContent') return false;
    if (e.name === 'w:p') {
      out.push(e);
      return false;
    }
    return true;
  });
  return out;
}

function deleteRowContent(tr: XmlElement, rw: RevisionWriter): void {
  for (const p of paragraphsIn(tr)) deleteParagraphContent(p, rw, 'w:del');
  markRow(tr, 'del', rw);
}

function deleteTableContent(tbl: XmlElement, rw: RevisionWriter): void {
  for (const p of paragraphsIn(tbl)) deleteParagraphContent(p, rw, 'w:del');
  for (const tr of tbl.all('w:tr')) markRow(tr, 'del', rw);
}
