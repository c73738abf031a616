import { useEffect } from 'react';
import { commentRangeBookmarks } from '../../contract/comments';

/** The name of the CSS highlight (styles.css: ::highlight(rl-comment)). */
const HIGHLIGHT = 'rl-comment';

/**
 * Highlights the ranges of these comments in the rendered draft: the text between the
 * bookmarks the render variant puts at each range's start and end (commentRangeBookmarks),
 * with the CSS Custom Highlight API, so the rendered DOM is not touched. Applied again whenever
 * the draft is rendered anew. Browsers without the API show no highlight.
 */
export function useCommentHighlight(commentIds: readonly string[]): void {
  const key = commentIds.join(' ');
  useEffect(() => {
    const registry = typeof CSS !== 'undefined' && 'highlights' in CSS ? CSS.highlights : null;
    if (!registry) return;
    const ids = key ? key.split(' ') : [];
    const apply = () => {
      const ranges: Range[] = [];
      for (const id of ids) {
        const names = commentRangeBookmarks(id);
        const start = document.getElementById(names.start);
        const end = document.getElementById(names.end);
        if (!start || !end) continue;
        const range = document.createRange();
        range.setStartAfter(start);
        range.setEndBefore(end);
        if (!range.collapsed) ranges.push(range);
      }
      if (ranges.length) registry.set(HIGHLIGHT, new Highlight(...ranges));
      else registry.delete(HIGHLIGHT);
    };
    apply();
    const host = document.querySelector('[data-testid="document-render"]');
    const observer = new MutationObserver(apply);
    if (host) observer.observe(host, { childList: true });
    return () => {
      observer.disconnect();
      registry.delete(HIGHLIGHT);
    };
  }, [key]);
}
