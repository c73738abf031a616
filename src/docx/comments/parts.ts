import type { DocxPackage } from '../package/package';
import { visibleText } from '../revisions/preview';
import { XmlElement, XmlText, remove, type XmlDocument } from '../xml/tree';

/**
 * The three parts Word 2016 and later keep comments in:
 * - word/comments.xml: each w:comment (id, author, initials, date) and its paragraphs; each
 *   paragraph carries a w14:paraId;
 * - word/commentsExtended.xml: per comment, keyed by the paraId of its last paragraph, the thread
 *   (w15:paraIdParent: the paraId of the comment replied to) and the resolved state (w15:done);
 * - word/commentsIds.xml: per comment (by that paraId) a durable id (w16cid:durableId).
 * Parts missing from a file are created, with their content type and relationship, the first time
 * they are written to. Comments of older files (no paraId, no extended part) read as unthreaded
 * and open; resolving one gives it a paraId and an entry.
 */
export const NS = {
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  w14: 'http://schemas.microsoft.com/office/word/2010/wordml',
  w15: 'http://schemas.microsoft.com/office/word/2012/wordml',
  w16cid: 'http://schemas.microsoft.com/office/word/2016/wordml/cid',
  mc: 'http://schemas.openxmlformats.org/markup-compatibility/2006',
};

const REL = {
  comments: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments',
  extended: 'http://schemas.microsoft.com/office/2011/relationships/commentsExtended',
  ids: 'http://schemas.microsoft.com/office/2016/09/relationships/commentsIds',
};
const TYPE = {
  comments: 'application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml',
  extended: 'application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml',
  ids: 'application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml',
};
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A comment as stored, before its place in the text is known. */
export interface StoredComment {
  id: string;
  el: XmlElement;
  author: string;
  initials: string | null;
  date: string | null;
  text: string;
  /** paraId of the comment's last paragraph: its key in the extended and ids parts. */
  paraId: string | null;
  parentId: string | null;
  done: boolean;
}

export interface NewComment {
  author: string;
  initials?: string;
  date: string;
  text: string;
}

export class CommentParts {
  constructor(private readonly pkg: DocxPackage) {}

  private part(rel: string): XmlDocument | null {
    const name = this.pkg.relatedPart(rel);
    return name ? this.pkg.xml(name) : null;
  }

  private ensure(rel: string, name: string, type: string, xml: string, story: boolean): XmlDocument {
    return this.part(rel) ?? this.pkg.createPart(name, DECLARATION + xml, type, rel, story ? 'comments' : undefined);
  }

  /** Every comment in file order, with threads and resolved state. */
  read(): StoredComment[] {
    const comments = this.part(REL.comments);
    if (!comments) return [];
    const ex = new Map<string, { parent: string | null; done: boolean }>();
    for (const e of this.part(REL.extended)?.root.all('w15:commentEx') ?? []) {
      const paraId = e.attr('w15:paraId');
      if (paraId) ex.set(paraId.toUpperCase(), { parent: e.attr('w15:paraIdParent')?.toUpperCase() ?? null, done: e.attr('w15:done') === '1' });
    }
    const list: StoredComment[] = [];
    const byParaId = new Map<string, StoredComment>();
    for (const el of comments.root.all('w:comment')) {
      const id = el.attr('w:id');
      if (id === null) continue;
      const paras = el.all('w:p');
      const paraId = paras[paras.length - 1]?.attr('w14:paraId')?.toUpperCase() ?? null;
      const entry = paraId ? ex.get(paraId) : undefined;
      const c: StoredComment = {
        id, el, author: el.attr('w:author') ?? '', initials: el.attr('w:initials'), date: el.attr('w:date'),
        text: paras.map((p) => visibleText(p).trim()).join('\n').trim(), paraId, parentId: entry?.parent ?? null, done: entry?.done ?? false,
      };
      list.push(c);
      if (paraId) byParaId.set(paraId, c);
    }
    // paraIdParent names a paragraph; the thread is the comment that paragraph belongs to.
    for (const c of list) c.parentId = c.parentId ? (byParaId.get(c.parentId)?.id ?? null) : null;
    return list;
  }

  /** Writes a new comment (a reply when `parent` is given); returns its id. */
  add(comment: NewComment, parent: StoredComment | null): string {
    const doc = this.ensure(REL.comments, 'word/comments.xml', TYPE.comments,
      `<w:comments xmlns:w="${NS.w}" xmlns:w14="${NS.w14}" xmlns:mc="${NS.mc}" mc:Ignorable="w14"/>`, true);
    declare(doc.root, 'w14');
    const existing = this.read();
    const id = String(existing.reduce((max, c) => Math.max(max, Number(c.id) || 0), -1) + 1);
    const taken = new Set(existing.map((c) => c.paraId).filter((p): p is string => p !== null));
    const paragraphs = comment.text.split(/\r?\n/);
    const paraIds = paragraphs.map((_, i) => freshHexId(`${id}:${i}:${comment.date}:${comment.text}`, taken));
    const el = XmlElement.create('w:comment', {
      'w:id': id, 'w:author': comment.author, 'w:date': comment.date, 'w:initials': comment.initials ?? initialsOf(comment.author),
    }, paragraphs.map((line, i) => commentParagraph(line, paraIds[i]!, i === 0)));
    doc.root.append(el);
    const paraId = paraIds[paraIds.length - 1]!;
    const parentParaId = parent ? this.paraIdOf(parent) : null;
    this.extended().append(XmlElement.create('w15:commentEx', {
      'w15:paraId': paraId, ...(parentParaId ? { 'w15:paraIdParent': parentParaId } : {}), 'w15:done': parent?.done ? '1' : '0',
    }));
    const durable = new Set(this.ids().all('w16cid:commentId').map((e) => e.attr('w16cid:durableId')?.toUpperCase() ?? ''));
    this.ids().append(XmlElement.create('w16cid:commentId', { 'w16cid:paraId': paraId, 'w16cid:durableId': freshHexId(`durable:${paraId}`, durable) }));
    return id;
  }

  /** Marks each comment done or open (Word keeps the flag per comment; a thread's state is its first comment's). */
  setDone(comments: readonly StoredComment[], done: boolean): void {
    const ex = this.extended();
    const entries = new Map(ex.all('w15:commentEx').map((e) => [e.attr('w15:paraId')?.toUpperCase() ?? '', e]));
    for (const c of comments) {
      const paraId = this.paraIdOf(c);
      const entry = entries.get(paraId);
      if (entry) entry.setAttr('w15:done', done ? '1' : '0');
      else ex.append(XmlElement.create('w15:commentEx', { 'w15:paraId': paraId, 'w15:done': done ? '1' : '0' }));
    }
  }

  /** Removes comments from all three parts (their markers in the text are the caller's). */
  remove(ids: ReadonlySet<string>): void {
    if (ids.size === 0) return;
    const gone = this.read().filter((c) => ids.has(c.id));
    const paraIds = new Set(gone.map((c) => c.paraId).filter((p): p is string => p !== null));
    for (const c of gone) remove(c.el);
    for (const e of this.part(REL.extended)?.root.all('w15:commentEx') ?? []) if (paraIds.has(e.attr('w15:paraId')?.toUpperCase() ?? '')) remove(e);
    for (const e of this.part(REL.ids)?.root.all('w16cid:commentId') ?? []) if (paraIds.has(e.attr('w16cid:paraId')?.toUpperCase() ?? '')) remove(e);
  }

  /** The comment's key paraId, given to its last paragraph first if it has none (a comment of an older file). */
  private paraIdOf(c: StoredComment): string {
    if (c.paraId) return c.paraId;
    const taken = new Set(this.read().map((x) => x.paraId).filter((p): p is string => p !== null));
    let paras = c.el.all('w:p');
    if (paras.length === 0) {
      c.el.append(XmlElement.create('w:p'));
      paras = c.el.all('w:p');
    }
    const comments = this.part(REL.comments)!;
    declare(comments.root, 'w14');
    const paraId = freshHexId(`${c.id}:${c.date ?? ''}:${c.text}`, taken);
    paras[paras.length - 1]!.setAttr('w14:paraId', paraId);
    c.paraId = paraId;
    return paraId;
  }

  private extended(): XmlElement {
    return this.ensure(REL.extended, 'word/commentsExtended.xml', TYPE.extended,
      `<w15:commentsEx xmlns:mc="${NS.mc}" xmlns:w15="${NS.w15}" mc:Ignorable="w15"/>`, false).root;
  }

  private ids(): XmlElement {
    return this.ensure(REL.ids, 'word/commentsIds.xml', TYPE.ids,
      `<w16cid:commentsIds xmlns:mc="${NS.mc}" xmlns:w16cid="${NS.w16cid}" mc:Ignorable="w16cid"/>`, false).root;
  }
}

/** The paragraph of a comment; the first starts with the annotation mark, as Word writes it. */
function commentParagraph(line: string, paraId: string, first: boolean): XmlElement {
  const runs: XmlElement[] = [];
  if (first) {
    runs.push(XmlElement.create('w:r', {}, [
      XmlElement.create('w:rPr', {}, [XmlElement.create('w:rStyle', { 'w:val': 'CommentReference' })]),
      XmlElement.create('w:annotationRef'),
    ]));
  }
  if (line) runs.push(XmlElement.create('w:r', {}, [XmlElement.create('w:t', { 'xml:space': 'preserve' }, [new XmlText(line)])]));
  return XmlElement.create('w:p', { 'w14:paraId': paraId, 'w14:textId': '77777777' }, [
    XmlElement.create('w:pPr', {}, [XmlElement.create('w:pStyle', { 'w:val': 'CommentText' })]),
    ...runs,
  ]);
}

/** Declares w14 on a comments root written by an older producer, and tells older readers they may ignore it. */
function declare(root: XmlElement, prefix: 'w14'): void {
  if (root.attr(`xmlns:${prefix}`) === null) root.setAttr(`xmlns:${prefix}`, NS[prefix]);
  if (root.attr('xmlns:mc') === null) root.setAttr('xmlns:mc', NS.mc);
  const ignorable = (root.attr('mc:Ignorable') ?? '').split(/\s+/).filter(Boolean);
  if (!ignorable.includes(prefix)) root.setAttr('mc:Ignorable', [...ignorable, prefix].join(' '));
}

/**
 * An 8-digit hex id below 0x80000000 (Word's rule for paraId and durableId), derived from `seed`
 * (FNV-1a) so the engine stays deterministic, and stepped past ids already taken.
 */
export function freshHexId(seed: string, taken: Set<string>): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  for (let n = (h >>> 0) % 0x7fffffff; ; n = (n + 1) % 0x7fffffff) {
    const id = Math.max(n, 1).toString(16).toUpperCase().padStart(8, '0');
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

export function initialsOf(name: string): string {
  const words = name.split(/[\s@.]+/).filter(Boolean);
  return words.slice(0, 3).map((w) => w[0]!.toUpperCase()).join('') || '?';
}
