import type { DocxPackage } from '../package/package';
import type { XmlElement } from '../xml/tree';
import { visibleText } from './preview';
import type { Site } from './sites';

/**
 * Justifications of uploaded files: the text of a comment anchored exactly on the change, i.e. a
 * w:commentRangeStart immediately before and the matching w:commentRangeEnd immediately after the
 * revision element (or, for a run formatting change, the run), in the same paragraph.
 */
export class CommentIndex {
  private texts: Map<string, string> | null = null;

  constructor(private readonly pkg: DocxPackage) {}

  private load(): Map<string, string> {
    if (this.texts) return this.texts;
    const map = new Map<string, string>();
    const comments = this.pkg.storyParts.find((p) => p.role === 'comments');
    if (comments) {
      for (const c of this.pkg.xml(comments.name).root.all('w:comment')) {
        const id = c.attr('w:id');
        if (id === null) continue;
        const paras = c.all('w:p').map((p) => visibleText(p).trim()).filter(Boolean);
        map.set(id, paras.join('\n'));
      }
    }
    this.texts = map;
    return map;
  }

  justificationOf(site: Site): string | null {
    const anchor = anchorOf(site);
    const parent = anchor?.parent;
    if (!anchor || !parent) return null;
    const kids = parent.children;
    const i = kids.indexOf(anchor);
    const before = kids[i - 1];
    const after = kids[i + 1];
    if (before?.kind !== 1 || after?.kind !== 1) return null;
    if (before.name !== 'w:commentRangeStart' || after.name !== 'w:commentRangeEnd') return null;
    const id = before.attr('w:id');
    if (id === null || id !== after.attr('w:id')) return null;
    const text = this.load().get(id);
    return text ? text : null;
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
