import { showComplexScript } from './render/complex-script';
import { showSimpleFields } from './render/simple-fields';
import { walkParts } from './render/part-walk';
import type { Revision } from '../contract/revision';
import { DocxPackage, type OpenOptions, type WriteOptions } from './package/package';
import { timed } from './package/phase-timing';
import { applyToScans, type Decision } from './revisions/apply';
import { groupChanges, type Change } from './revisions/changes';
import { editGroups, groupMembers, type EditGroup } from './revisions/groups';
import { lastRenderedPages } from './revisions/pages';
import { recordedPages, type RecordedPages } from './pages/recorded-pages';
import { NumberingDefinitions } from './numbering/definitions';
import { paragraphLabels, type ListMemo, type ParagraphLabel } from './numbering/labels';
import { ancestorNamed, firstParagraph } from './ooxml/paragraphs';
import { changeClock, lastChanged, type XmlElement } from './xml/tree';
import { containmentOf, goneAs, goneWhenOf, takersOf, type GoneWhen, type Taker } from './revisions/containment';
import { assignUniqueIds } from './revisions/ids';
import type { Comment } from '../contract/comments';
import { DocComments, type CommentTarget } from './comments/comments';
import { addCommentRangeMarks } from './comments/render-marks';
import type { NewComment } from './comments/parts';
import { CommentIndex } from './revisions/justification';
import { previewOf } from './revisions/preview';
import { ListingMemo } from './revisions/listing-memo';
import { MOVE_TYPES, scanPart, type PartScan } from './revisions/sites';
import { buildRenderOverlay } from './render/variant';
import { readBlockIndex, readBlocks, type ReadInput } from './reading/blocks';
import type { Block } from '../contract/reading';
import { VariantMemo } from './render/variant-memo';
import { markObjects } from './render/drawings';
import { mapSymbols } from './render/symbols';
import { writeRedlinesIn, type RedlineEdit, type RedlineOptions, type RedlineResult } from './redline/write';

/**
 * One parsed .docx serving several operations: list, apply, redline, render, write. Opening
 * gives every revision a unique id in memory (a no-op for an ingested draft), so change ids
 * always name exactly one change.
 *
 * Every operation may follow any other: the render variant is written through an overlay and
 * leaves the document as it was, so a caller can keep one draft open across many batches
 * (applying to a kept document writes the same bytes as applying to a freshly opened one).
 */
export class OpenDocx {
  private scans: PartScan[] = [];
  private changes: Change[] = [];
  /** The last render variant's body blocks, for the next one to copy those no batch touched. */
  private readonly variantMemo = new VariantMemo();
  /** The last listing's previews and group summaries, for the next one to take over those of blocks no batch touched. */
  private readonly previews = new ListingMemo();
  private readonly summaries = new ListingMemo();
  private readonly justifications = new ListingMemo();
  /** The numbering and styles as last read, with the lists of paragraphs counted over them (numbering/labels.ts). */
  private numbering: { roots: (XmlElement | null)[]; defs: NumberingDefinitions; lists: ListMemo; at: number } | null = null;
  /** Whether opening had to renumber ids (the bytes are not yet an ingested draft). */
  readonly renumbered: boolean;

  private constructor(private readonly pkg: DocxPackage) {
    this.rescan();
    this.renumbered = timed(pkg.timing, 'scan', () => assignUniqueIds(this.scans));
    // The changes were grouped under the ids as read; a renumbered file lists the new ones.
    if (this.renumbered) this.changes = timed(pkg.timing, 'scan', () => groupChanges(this.scans));
  }

  static open(bytes: Uint8Array, opts?: OpenOptions): OpenDocx {
    return new OpenDocx(DocxPackage.open(bytes, opts));
  }

  /** An independent copy of this document as it stands, without parsing it again (DocxPackage.copy): decide one, read the other. */
  copy(): OpenDocx {
    return new OpenDocx(this.pkg.copy());
  }

  private rescan(): void {
    const stories = this.pkg.stories(); // parsed first, outside the scan's time
    timed(this.pkg.timing, 'scan', () => {
      // Each part's previous scan lets the new one skip the blocks that did not change since.
      const previous = new Map(this.scans.map((s) => [s.part, s]));
      this.scans = stories.map(({ part, doc }) => scanPart(part.name, part.role, doc, previous.get(part.name)));
      this.changes = groupChanges(this.scans);
    });
  }

  /**
   * Roughly what this open document holds in memory: measured at 6.2x the characters of the
   * parsed parts on the 300-page benchmark draft (47 MB for a 7.5 MB document.xml), rounded up.
   */
  get approximateHeapBytes(): number {
    return 7 * this.pkg.parsedChars;
  }

  get revisionCount(): number {
    return this.changes.length;
  }

  /** Change ids in document order. */
  changeIds(): string[] {
    return this.changes.map((c) => c.changeId);
  }

  revisions(opts: { justifications?: ReadonlyMap<string, string> } = {}): Revision[] {
    return this.previews.listing(() => this.justifications.listing(() => this.list(opts)));
  }

  private list(opts: { justifications?: ReadonlyMap<string, string> }): Revision[] {
    const comments = new CommentIndex(this.pkg);
    const groupOf = new Map<string, EditGroup>();
    for (const g of this.groups()) for (const id of g.members) groupOf.set(id, g);
    const clauseOf = this.clauses();
    const justificationSources = comments.sources();
    return this.changes.map((c, i) => {
      const group = groupOf.get(c.changeId)!;
      const lead = c.sites[0]!;
      // A proposed control has no author or date of its own; its tracked insertion has them, else its justification's writer.
      const who = lead.type === 'proposed' ? (c.sites[1] ?? lead) : lead;
      const proposer = who === lead && lead.type === 'proposed' ? comments.justifierOf(lead) : null;
      const author = proposer ? proposer.author : who.el.attr('w:author');
      const date = proposer ? proposer.date : who.el.attr('w:date');
      const textPreview = this.previews.read(c.sites, '', () => previewOf(c.sites));
      // Read from the comment markers beside the change (its block) and the comments parts.
      const justification = opts.justifications?.get(c.changeId)
        ?? this.justifications.read([lead], '', () => comments.justificationOf(lead), justificationSources);
      // Styles and numbering changes have no place in the text (and no bookmark in the render variant).
      const documentWide = lead.role === 'styles' || lead.role === 'numbering';
      const move = c.sites.some((s) => MOVE_TYPES.has(s.type));
      const clause = clauseOf(lead.el);
      // One literal per shape, the keys in the interface's order: thousands of these per listing,
      // and an object spread of an optional member costs more than the rest of the entry.
      if (!documentWide && !move) {
        return { ordinal: i + 1, change_id: c.changeId, kind: c.kind, author, date, text_preview: textPreview, justification, group: group.id, group_summary: group.summary, clause };
      }
      return {
        ordinal: i + 1, change_id: c.changeId, kind: c.kind, author, date, text_preview: textPreview, justification,
        ...(documentWide ? { document_wide: true as const } : {}),
        ...(move ? { move: true as const } : {}),
        group: group.id, group_summary: group.summary, clause,
      };
    });
  }

  /**
   * The list label of every numbered paragraph of a part (default: the main document), as Word
   * shows it (numbering/labels.ts): for reading the draft paragraph by paragraph.
   */
  paragraphLabels(part?: string): Map<XmlElement, ParagraphLabel> {
    const scan = part === undefined ? this.scans.find((s) => s.role === 'document') : this.scans.find((s) => s.part === part);
    const { defs, lists } = this.numberingDefinitions();
    return scan ? paragraphLabels(scan.doc.root, defs, lists) : new Map();
  }

  /** The numbering definitions, read again only when the numbering or styles part changed since. */
  private numberingDefinitions(): { defs: NumberingDefinitions; lists: ListMemo } {
    const root = (role: string) => this.scans.find((s) => s.role === role)?.doc.root ?? null;
    const roots = [root('numbering'), root('styles')];
    const known = this.numbering;
    if (known && roots.every((r, i) => r === known.roots[i] && (!r || lastChanged(r) <= known.at))) return known;
    this.numbering = { roots, defs: new NumberingDefinitions(roots[0] ?? null, roots[1] ?? null), lists: new WeakMap(), at: changeClock() };
    return this.numbering;
  }

  /**
   * For an element of a story, the clause its paragraph is cited by ("7.3(a)"), or null when that
   * paragraph is not numbered or is a bullet.
   */
  private clauses(): (el: XmlElement) => string | null {
    const clauseOf = this.clauseFinder();
    return (el) => {
      const p = ancestorNamed(el, 'w:p') ?? firstParagraph(ancestorNamed(el, 'w:tr') ?? el);
      return p ? clauseOf(p)?.clause ?? null : null;
    };
  }

  /** A paragraph's clause label and list level, bullets aside; labels are counted once per part, on first ask. */
  private clauseFinder(): (p: XmlElement) => { clause: string; level: number } | undefined {
    const { defs, lists } = this.numberingDefinitions();
    const byRoot = new Map<XmlElement, Map<XmlElement, ParagraphLabel>>();
    return (p) => {
      let root = p;
      while (root.parent) root = root.parent;
      let labels = byRoot.get(root);
      if (!labels) byRoot.set(root, labels = paragraphLabels(root, defs, lists));
      const label = labels.get(p);
      return label && !label.bullet && label.clause ? { clause: label.clause, level: label.level } : undefined;
    };
  }

  /** The page of each change of the main document as Word last laid it out; empty when the file does not say (revisions/pages.ts). */
  pages(): Map<string, number> {
    return lastRenderedPages(this.scans, this.changes);
  }

  /** The main document's pages as Word last laid them out, with the label each prints; null when the file does not say (pages/recorded-pages.ts). */
  recordedPages(): RecordedPages | null {
    const main = this.scans.find((s) => s.role === 'document');
    return main ? recordedPages(main.doc.root) : null;
  }

  /** What Word shows as one edit: groups of consecutive changes, in document order (revisions/groups.ts). */
  groups(): EditGroup[] {
    return this.summaries.listing(() => editGroups(this.changes, this.summaries));
  }

  /**
   * For each change another decision could take with it, those takers, innermost first (see
   * revisions/containment.ts). Read before a batch, it says what the batch took and what may
   * take, later, the changes the batch decided.
   */
  takers(): Map<string, Taker[]> {
    return takersOf(this.changes);
  }

  /**
   * For each change other decisions could remove whatever its own verdict, the condition on their
   * verdicts under which they do (revisions/containment.ts, goneWhenOf).
   */
  goneWhen(): Map<string, GoneWhen> {
    return goneWhenOf(this.changes);
  }

  /** takers() and goneWhen() together, reading once what each decision removes. */
  containment(): { takers: Map<string, Taker[]>; goneWhen: Map<string, GoneWhen> } {
    return containmentOf(this.changes);
  }

  /** For each change, the verdict its disappearance amounts to when nothing named or took it. */
  goneAs(): Map<string, 'accept' | 'reject'> {
    return new Map(this.changes.map((c) => [c.changeId, goneAs(c)]));
  }

  /** Accepts and rejects a batch atomically (ids are checked before anything changes). */
  apply(decision: Decision): this {
    timed(this.pkg.timing, 'decide', () => applyToScans(this.scans, this.changes, decision));
    this.rescan();
    // A comment whose mark went with decided content goes too (no reference without its comment).
    const before = this.pkg.mutationCount();
    timed(this.pkg.timing, 'decide', () => new DocComments(this.pkg).reconcile(this.scans));
    if (this.pkg.mutationCount() !== before) this.rescan();
    return this;
  }

  /**
   * The document's blocks as it stands (reading/blocks.ts): every paragraph's visible text and,
   * for tracked changes, where each lies in it, with the listing's author, date and group.
   */
  blocks(): Block[] {
    const info = new Map(this.revisions().map((r) => [r.change_id, {
      kind: r.kind, author: r.author ?? null, date: r.date ?? null, ...(r.group ? { group: r.group } : {}),
    }]));
    return readBlocks({ ...this.readInput(info), pages: this.recordedPages() });
  }

  /**
   * The blocks as the checks read them (src/docx/checks): the same paragraphs, texts, clause
   * labels and changes (kind, place, group) as blocks(), without what the checks never read and
   * blocks() pays for: the revision listing (previews, justifications, group summaries, each
   * change's clause) and the pages Word last laid out (a walk of the body for its rendered page
   * breaks), and the blocks' versions (''; a table holding a nested table has another id, made
   * from the nested one's version). Each change's author and date are null here.
   */
  blocksForChecks(): Block[] {
    const info = new Map<string, { kind: Change['kind']; author: null; date: null; group: string }>();
    for (const members of groupMembers(this.changes)) {
      const group = members[0]!.changeId;
      for (const c of members) info.set(c.changeId, { kind: c.kind, author: null, date: null, group });
    }
    return readBlocks({ ...this.readInput(info), withoutVersions: true });
  }

  /** What the reader needs (the listing's facts of each change, where the caller wants them). */
  private readInput(info: ReadInput['info']): ReadInput {
    return {
      scans: this.scans,
      changes: this.changes,
      styles: this.scans.find((s) => s.role === 'styles')?.doc ?? null,
      info,
      numberingOf: this.clauseFinder(),
    };
  }

  /** The document's comments (threads, resolved state, the changes each covers). */
  comments(): Comment[] {
    return new DocComments(this.pkg).list(this.scans, this.changes, new CommentIndex(this.pkg));
  }

  /** Adds a comment on a change or on text; returns its id. Throws, changing nothing, when the target is not there. */
  addComment(target: CommentTarget, comment: NewComment): string {
    const id = new DocComments(this.pkg).add(target, comment, this.changes);
    this.rescan();
    return id;
  }

  /** Replies in the thread of a comment; returns the reply's id. */
  replyToComment(commentId: string, comment: NewComment): string {
    const id = new DocComments(this.pkg).reply(commentId, comment, this.scans);
    this.rescan();
    return id;
  }

  /** Resolves or reopens the thread of a comment. */
  setCommentResolved(commentId: string, resolved: boolean): this {
    new DocComments(this.pkg).setResolved(commentId, resolved);
    return this;
  }

  /** Removes every comment and its marks. */
  removeComments(): this {
    new DocComments(this.pkg).removeAll(this.scans);
    this.rescan();
    return this;
  }

  writeRedlines(edits: readonly RedlineEdit[], opts: RedlineOptions): RedlineResult['changes'] {
    // Block ids and versions as the reader gives them (the listing's author, date and group play no part in either).
    const result = writeRedlinesIn(this.scans, edits, opts, () => readBlockIndex(this.readInput(new Map())));
    this.rescan();
    return result.changes;
  }

  /**
   * The display variant of the document as it is now (see render/variant.ts); the document is not
   * changed. The body's blocks no batch touched since the last variant are copied from it
   * (render/variant-memo.ts); `reuse: false` writes every block afresh (the same bytes).
   */
  renderVariant(opts: { reuse?: boolean } = {}): Uint8Array {
    // A display copy, sent once and never stored: fast deflate beats small.
    return this.writeVariant(opts.reuse ?? true, (write) => this.pkg.toBytes(write));
  }

  private renderOverlay() {
    const overlay = buildRenderOverlay(this.scans, this.changes);
    addCommentRangeMarks(overlay, this.scans);
    markObjects(overlay, this.scans);
    mapSymbols(overlay, this.scans, this.pkg);
    // One walk over each part for the rewrites that look at elements one by one.
    walkParts(this.scans, [showSimpleFields(overlay), showComplexScript(overlay, this.scans, this.pkg)]);
    return overlay;
  }

  /** `renderVariant`, serialised now and compressed off the calling thread where the codec can. */
  renderVariantAsync(): Promise<Uint8Array> {
    return this.writeVariant(true, (write) => this.pkg.toBytesAsync(write));
  }

  private writeVariant<T>(reuse: boolean, write: (opts: WriteOptions) => T): T {
    const overlay = this.renderOverlay();
    const body = reuse ? this.scans.find((s) => s.role === 'document')?.doc.root.first('w:body') : null;
    if (!body) return write({ level: 1, overlay });
    const memo = this.variantMemo.begin(body, overlay);
    const written = write({ level: 1, overlay, memo });
    memo.done();
    return written;
  }

  /** The document's bytes; the same array again while nothing changed since the last call. */
  toBytes(opts: { forceRewrite?: boolean } = {}): Uint8Array {
    return this.pkg.toBytes(opts);
  }

  /**
   * `toBytes`, serialised now and compressed off the calling thread where the codec can (the
   * service's zlib codec can); the document may be read or rendered meanwhile.
   */
  toBytesAsync(): Promise<Uint8Array> {
    return this.pkg.toBytesAsync();
  }
}
