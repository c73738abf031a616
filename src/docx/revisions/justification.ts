import type { DocxPackage } from '../package/package';
import type { XmlElement } from '../xml/tree';
import { visibleText } from './preview';
import type { Site } from './sites';

/**
 * Justifications of uploaded files: the text of a comment anchored exactly on the change, i.e. its
 * w:commentRangeStart among the start markers immediately before the revision element (or, for a
 * run formatting change, the run) and its w:commentRangeEnd among the end markers and reference
 * runs immediately after, in the same paragraph. Word stacks a reply's markers beside its
 * thread's, so of the comments hugging the change the justification is the innermost one that
 * is not a reply. (Comments Redline writes on a change sit inside the revision element, so they
 * are never taken for its justification: see comments/anchor.ts.)
 */
interface StoredText {
  text: string;
  author: string | null;
  date: string | null;
  /** paraId of the last paragraph: replies name it as their parent in commentsExtended.xml. */
  paraId: string | null;
}

export class CommentIndex {
  private texts: Map<string, StoredText> | null = null;
  private replies: Set<string> | null = null;

  constructor(private readonly pkg: DocxPackage) {}

  private load(): Map<string, StoredText> {
    if (this.texts) return this.texts;
    const map = new Map<string, StoredText>();
    const comments = this.pkg.storyParts.find((p) => p.role === 'comments');
    if (comments) {
      for (const c of this.pkg.xml(comments.name).root.all('w:comment')) {
        const id = c.attr('w:id');
        if (id === null) continue;
        const ps = c.all('w:p');
        const paras = ps.map((p) => visibleText(p).trim()).filter(Boolean);
        map.set(id, { text: paras.join('\n'), author: c.attr('w:author'), date: c.attr('w:date'), paraId: ps[ps.length - 1]?.attr('w14:paraId')?.toUpperCase() ?? null });
      }
    }
    this.texts = map;
    return map;
  }

  /** Comment ids that reply to another comment (commentsExtended.xml names a parent). */
  private replyIds(): Set<string> {
    if (this.replies) return this.replies;
    const withParent = new Set<string>();
    const rel = this.pkg.relatedPart('http://schemas.microsoft.com/office/2011/relationships/commentsExtended');
    if (rel) {
      for (const e of this.pkg.xml(rel).root.all('w15:commentEx')) {
        if (e.attr('w15:paraIdParent')) withParent.add(e.attr('w15:paraId')?.toUpperCase() ?? '');
      }
    }
    const ids = new Set<string>();
    for (const [id, c] of this.load()) if (c.paraId && withParent.has(c.paraId)) ids.add(id);
    this.replies = ids;
    return ids;
  }

  /** The roots of the parts justifications are read from besides the document (comments, and which of them are replies). */
  sources(): XmlElement[] {
    const comments = this.pkg.storyParts.find((p) => p.role === 'comments');
    const extended = this.pkg.relatedPart('http://schemas.microsoft.com/office/2011/relationships/commentsExtended');
    return [comments?.name, extended].filter((name): name is string => !!name).map((name) => this.pkg.xml(name).root);
  }

  justificationOf(site: Site): string | null {
    const id = this.justificationIdOf(site);
    return id === null ? null : (this.load().get(id)?.text || null);
  }

  /**
   * Who wrote the justification of a change, and when: for a proposed control without a tracked
   * insertion inside (a control carries no author or date), the proposer is whoever justified it.
   */
  justifierOf(site: Site): { author: string | null; date: string | null } | null {
    const id = this.justificationIdOf(site);
    const comment = id === null ? undefined : this.load().get(id);
    return comment ? { author: comment.author, date: comment.date } : null;
  }

  /** The id of the comment that justifies the change whose first site this is, if any. */
  justificationIdOf(site: Site): string | null {
    const anchor = anchorOf(site);
    const parent = anchor?.parent;
    if (!anchor || !parent) return null;
    const kids = parent.children;
    const i = kids.indexOf(anchor);
    const ends = new Set<string>();
    for (let j = i + 1; j < kids.length; j++) {
      const k = kids[j]!;
      if (k.kind !== 1) break;
      if (k.name === 'w:commentRangeEnd') ends.add(k.attr('w:id') ?? '');
      else if (!(k.name === 'w:r' && k.first('w:commentReference'))) break;
    }
    if (ends.size === 0) return null;
    for (let j = i - 1; j >= 0; j--) {
      const k = kids[j]!;
      if (k.kind !== 1 || k.name !== 'w:commentRangeStart') break;
      const id = k.attr('w:id');
      if (id === null || !ends.has(id) || this.replyIds().has(id)) continue;
      const comment = this.load().get(id);
      if (!comment?.text) continue;
      return id;
    }
    return null;
  }
}

function anchorOf(site: Site): XmlElement | null {
  switch (site.type) {
    case 'run-ins':
    case 'run-del':
    case 'move-from':
    case 'move-to':
    case 'proposed':
      return site.el;
    case 'rpr-change': {
      const run = site.el.parent?.parent;
      return run?.name === 'w:r' ? run : null;
    }
    default:
      return null;
  }
}
