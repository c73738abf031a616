import type { Comment } from '../../contract/comments';
import { CommentAnchorError, UnknownChangeIdsError, UnknownCommentError } from '../errors';
import type { DocxPackage } from '../package/package';
import { isolate, locate } from '../redline/write';
import type { Change } from '../revisions/changes';
import type { CommentIndex } from '../revisions/justification';
import type { PartScan, Site } from '../revisions/sites';
import { isWithin, remove, type XmlElement } from '../xml/tree';
import { isCommentMarker, markersFor, placeMarkers, rangeOfSite } from './anchor';
import { CommentParts, type NewComment, type StoredComment } from './parts';

/** What a new comment is about: a change (its range) or a text anchor in the main document. */
export type CommentTarget = { changeId: string } | { find: string; occurrence?: number };

const ANCHOR_TEXT_MAX = 200;

/**
 * The comments of an open document: read with their place in the text, written as Word writes
 * them (see parts.ts and anchor.ts). Every operation works on the parsed parts; the caller
 * rescans afterwards (comment markers are among a scan's range markers).
 */
export class DocComments {
  private readonly parts: CommentParts;

  constructor(private readonly pkg: DocxPackage) {
    this.parts = new CommentParts(pkg);
  }

  /**
   * Every comment in file order. A comment covers the changes whose revision elements lie in its
   * range; a change recorded on a paragraph, row, cell or table (a paragraph mark, formatting, an
   * inserted row) is covered by a comment whose range is open where that container's first run
   * stands (a comment on the whole paragraph or row, not on a few words in it).
   */
  list(scans: readonly PartScan[], changes: readonly Change[], justifications: CommentIndex): Comment[] {
    const stored = this.parts.read();
    if (stored.length === 0) return [];
    const changeOf = new Map<XmlElement, string>();
    const containerSites = new Map<XmlElement, string[]>();
    for (const change of changes) {
      for (const site of change.sites) {
        const container = containerOf(site);
        if (!container) changeOf.set(site.el, change.changeId);
        else {
          const list = containerSites.get(container) ?? [];
          list.push(change.changeId);
          containerSites.set(container, list);
        }
      }
    }
    const covered = new Map<string, string[]>(stored.map((c) => [c.id, []]));
    const texts = new Map<string, string>(stored.map((c) => [c.id, '']));
    const open = new Set<string>();
    const cover = (id: string, changeId: string) => {
      const list = covered.get(id);
      if (list && !list.includes(changeId)) list.push(changeId);
    };
    // Changes whose revision element encloses the walk's position: a range starting inside one covers it.
    const enclosing: string[] = [];
    const walkStory = (el: XmlElement, containers: { seen: Set<string> | null }[]): void => {
      const name = el.name;
      if (name === 'w:commentRangeStart') {
        const id = el.attr('w:id') ?? '';
        open.add(id);
        for (const changeId of enclosing) cover(id, changeId);
        return;
      }
      if (name === 'w:r') for (const c of containers) c.seen ??= new Set(open);
      if (name === 'w:commentRangeEnd') {
        open.delete(el.attr('w:id') ?? '');
        return;
      }
      const changeId = changeOf.get(el);
      if (changeId) for (const id of open) cover(id, changeId);
      if (changeId) enclosing.push(changeId);
      if ((name === 'w:t' || name === 'w:delText') && open.size > 0) {
        let text = '';
        for (const c of el.children) if (c.kind === 2) text += c.text;
        for (const id of open) {
          const sofar = texts.get(id);
          if (sofar !== undefined && sofar.length < ANCHOR_TEXT_MAX) texts.set(id, sofar + text);
        }
        return;
      }
      const pending = containerSites.get(el);
      const frame: { seen: Set<string> | null } | null = pending ? { seen: null } : null;
      if (frame) containers.push(frame);
      for (const c of el.children) if (c.kind === 1) walkStory(c, containers);
      if (changeId) enclosing.pop();
      if (frame) {
        containers.pop();
        for (const id of frame.seen ?? []) for (const changeId of pending!) cover(id, changeId);
      }
    };
    for (const scan of scans) {
      if (!scan.ranges.some((r) => r.name === 'w:commentRangeStart')) continue;
      open.clear();
      for (const block of blocksWithComments(scan)) walkStory(block, []);
    }
    const byId = new Map(stored.map((c) => [c.id, c]));
    const rootOf = (c: StoredComment): StoredComment => {
      const seen = new Set<string>();
      let at = c;
      while (at.parentId && byId.has(at.parentId) && !seen.has(at.id)) {
        seen.add(at.id);
        at = byId.get(at.parentId)!;
      }
      return at;
    };
    const justifying = new Set(changes.map((c) => justifications.justificationIdOf(c.sites[0]!)).filter((id): id is string => id !== null));
    return stored.map((c) => ({
      id: c.id,
      parentId: c.parentId,
      author: c.author,
      initials: c.initials,
      date: c.date,
      text: c.text,
      resolved: rootOf(c).done,
      changeIds: c.parentId ? (covered.get(rootOf(c).id) ?? []) : (covered.get(c.id) ?? []),
      anchorText: clipAnchor(texts.get(c.parentId ? rootOf(c).id : c.id) ?? ''),
      justification: justifying.has(c.id),
    }));
  }

  /** Adds a comment on a change or a text anchor; returns its id. Throws before changing anything when the target is not there. */
  add(target: CommentTarget, comment: NewComment, changes: readonly Change[]): string {
    let place: () => ReturnType<typeof rangeOfSite>;
    if ('changeId' in target) {
      const change = changes.find((c) => c.changeId === target.changeId);
      if (!change) throw new UnknownChangeIdsError([target.changeId]);
      const site = change.sites[0]!;
      if (!rangeOfSite(site)) throw new CommentAnchorError(`Change ${target.changeId} is in the document's ${site.role}, where Word keeps no comments.`);
      place = () => rangeOfSite(site);
    } else {
      // Word keeps comments in the body (not in headers or footers): anchors are found there.
      const body = { role: 'document' as const, doc: this.pkg.xml(this.pkg.mainPart) };
      const occurrence = target.occurrence ?? 1;
      const match = locate([body], target.find, occurrence);
      if (!match) {
        const shown = target.find.length > 60 ? `${target.find.slice(0, 57)}...` : target.find;
        throw new CommentAnchorError(occurrence > 1 ? `Occurrence ${occurrence} of "${shown}" does not occur in the draft.` : `"${shown}" does not occur in the draft.`);
      }
      place = () => {
        const runs = isolate(match);
        return { startBefore: runs[0]!, endAfter: runs[runs.length - 1]! };
      };
    }
    const id = this.parts.add(comment, null);
    placeMarkers(id, place()!);
    return id;
  }

  /** A reply in the thread of `parentId` (a reply to a reply joins the same thread, as in Word). */
  reply(parentId: string, comment: NewComment, scans: readonly PartScan[]): string {
    const { root: parent } = this.threadOf(parentId);
    const found = findMarkers(scans, parent.id);
    if (!found.reference) throw new UnknownCommentError(parentId);
    const id = this.parts.add(comment, parent);
    this.placeReplyMarkers({ start: found.start, reference: found.reference }, id);
    return id;
  }

  /** Resolves or reopens the thread the comment belongs to. */
  setResolved(commentId: string, resolved: boolean): void {
    const { root, byId } = this.threadOf(commentId);
    this.parts.setDone(this.thread(root, byId), resolved);
  }

  /** The first comment of the thread `commentId` belongs to; throws for an unknown id. */
  private threadOf(commentId: string): { root: StoredComment; byId: Map<string, StoredComment> } {
    const byId = new Map(this.parts.read().map((c) => [c.id, c]));
    let root = byId.get(commentId);
    if (!root) throw new UnknownCommentError(commentId);
    const seen = new Set<string>();
    while (root.parentId && byId.has(root.parentId) && !seen.has(root.id)) {
      seen.add(root.id);
      root = byId.get(root.parentId)!;
    }
    return { root, byId };
  }

  /** Removes every comment and every comment marker (for a clean copy). */
  removeAll(scans: readonly PartScan[]): void {
    const ids = new Set(this.parts.read().map((c) => c.id));
    this.parts.remove(ids);
    for (const scan of scans) removeMarkers(scan, null);
  }

  /**
   * After content was removed (a decision), keeps comments and text consistent: a comment whose
   * reference went with the content is removed with its replies and remaining markers, and a
   * marker naming no comment is removed. A comment whose range went but whose reference stayed
   * remains, as a point comment (the range markers' repair drops a half-pair).
   */
  reconcile(scans: readonly PartScan[]): void {
    const stored = this.parts.read();
    const referenced = new Set<string>();
    let markers = 0;
    for (const scan of scans) {
      for (const el of scan.ranges) {
        if (!isWithin(el, scan.doc.root)) continue;
        if (el.name === 'w:commentReference') referenced.add(el.attr('w:id') ?? '');
        if (el.name.startsWith('w:comment')) markers++;
      }
    }
    if (stored.length === 0 && markers === 0) return;
    const byId = new Map(stored.map((c) => [c.id, c]));
    const gone = new Set(stored.filter((c) => !referenced.has(c.id)).map((c) => c.id));
    for (const c of stored) if (gone.has(c.id) || (c.parentId && gone.has(c.parentId))) this.thread(c, byId).forEach((x) => gone.add(x.id));
    this.parts.remove(gone);
    const kept = new Set(stored.filter((c) => !gone.has(c.id)).map((c) => c.id));
    for (const scan of scans) removeMarkers(scan, kept);
  }

  private inThread(c: StoredComment, rootId: string, byId: Map<string, StoredComment>): boolean {
    const seen = new Set<string>();
    for (let at: StoredComment | undefined = c; at && !seen.has(at.id); at = at.parentId ? byId.get(at.parentId) : undefined) {
      seen.add(at.id);
      if (at.parentId === rootId) return true;
    }
    return false;
  }

  /** A thread: the comment and every reply under it. */
  private thread(root: StoredComment, byId: Map<string, StoredComment>): StoredComment[] {
    return [root, ...[...byId.values()].filter((c) => this.inThread(c, root.id, byId))];
  }

  /** A reply's markers right after its thread's: its start after the thread's start, its end and reference after the thread's reference. */
  private placeReplyMarkers(found: { start: XmlElement | null; reference: XmlElement }, id: string): void {
    const { start, end, reference } = markersFor(id);
    if (found.start) found.start.parent!.insertAfter(start, found.start);
    // After the thread's reference and the replies already following it.
    let after: XmlElement = found.reference;
    const kids = after.parent!.children;
    for (let i = kids.indexOf(after) + 1; i < kids.length && kids[i]!.kind === 1 && isCommentMarker(kids[i] as XmlElement) && (kids[i] as XmlElement).name !== 'w:commentRangeStart'; i++) {
      after = kids[i] as XmlElement;
    }
    if (found.start) after.parent!.insertAfter(end, after);
    after.parent!.insertAfter(reference, found.start ? end : after);
  }
}

/** A comment's range start and reference run (the run holding w:commentReference), from the scans' markers. */
function findMarkers(scans: readonly PartScan[], id: string): { start: XmlElement | null; reference: XmlElement | null } {
  for (const scan of scans) {
    let start: XmlElement | null = null;
    for (const el of scan.ranges) {
      if (el.attr('w:id') !== id || !isWithin(el, scan.doc.root)) continue;
      if (el.name === 'w:commentRangeStart') start = el;
      else if (el.name === 'w:commentReference') return { start, reference: el.parent?.name === 'w:r' ? el.parent : el };
    }
  }
  return { start: null, reference: null };
}

/**
 * The blocks of a story (its root's grandchildren: a body's paragraphs and tables, a note's
 * paragraphs) that comment ranges touch, in order: those from each range's start to its end,
 * and those holding a marker. Listing walks only these, not the whole 300-page body.
 */
function blocksWithComments(scan: PartScan): XmlElement[] {
  const root = scan.doc.root;
  const blockOf = (el: XmlElement): XmlElement | null => {
    let e: XmlElement | null = el;
    while (e?.parent && e.parent.parent !== root) e = e.parent;
    return e?.parent ? e : null;
  };
  const position = new Map<XmlElement, number>();
  const wanted = new Set<XmlElement>();
  const starts = new Map<string, XmlElement>();
  const indexIn = (block: XmlElement): number => {
    if (!position.has(block)) block.parent!.children.forEach((k, i) => k.kind === 1 && position.set(k, i));
    return position.get(block)!;
  };
  for (const el of scan.ranges) {
    if (!el.name.startsWith('w:comment') || !isWithin(el, root)) continue;
    const block = blockOf(el);
    if (!block) continue;
    wanted.add(block);
    if (el.name === 'w:commentRangeStart') starts.set(el.attr('w:id') ?? '', block);
    else if (el.name === 'w:commentRangeEnd') {
      const from = starts.get(el.attr('w:id') ?? '');
      if (!from || from.parent !== block.parent) continue;
      const kids = block.parent!.children;
      for (let i = indexIn(from) + 1; i < indexIn(block); i++) if (kids[i]!.kind === 1) wanted.add(kids[i] as XmlElement);
    }
  }
  return [...wanted].sort((a, b) => (a.parent === b.parent ? indexIn(a) - indexIn(b) : 0));
}

/** Removes the comment markers of a story, all of them (`keep` null) or those naming a comment not kept. */
function removeMarkers(scan: PartScan, keep: ReadonlySet<string> | null): void {
  for (const el of scan.ranges) {
    if (!el.name.startsWith('w:comment') || !isWithin(el, scan.doc.root)) continue;
    if (keep?.has(el.attr('w:id') ?? '')) continue;
    const run = el.parent;
    remove(el);
    // The reference's run goes too when nothing but formatting is left in it.
    if (el.name === 'w:commentReference' && run?.name === 'w:r' && run.elements().every((k) => k.name === 'w:rPr')) remove(run);
  }
}

/** The element whose whole extent a site's change stands for, when it is not an element in the text. */
function containerOf(site: Site): XmlElement | null {
  switch (site.type) {
    case 'run-ins': case 'run-del': case 'move-from': case 'move-to': case 'proposed':
      return null;
    case 'rpr-change':
      return site.el.parent?.parent?.name === 'w:r' ? null : closest(site.el, 'w:p');
    case 'row-ins': case 'row-del': case 'trpr-change': case 'tblprex-change':
      return closest(site.el, 'w:tr');
    case 'cell-ins': case 'cell-del': case 'cell-merge': case 'tcpr-change':
      return closest(site.el, 'w:tc');
    case 'tblpr-change': case 'tblgrid-change':
      return closest(site.el, 'w:tbl');
    case 'sectpr-change':
      return closest(site.el, 'w:p') ?? closest(site.el, 'w:body');
    default:
      return closest(site.el, 'w:p');
  }
}

function closest(el: XmlElement, name: string): XmlElement | null {
  for (let e: XmlElement | null = el; e; e = e.parent) if (e.name === name) return e;
  return null;
}

function clipAnchor(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > ANCHOR_TEXT_MAX ? `${t.slice(0, ANCHOR_TEXT_MAX - 1)}…` : t;
}
