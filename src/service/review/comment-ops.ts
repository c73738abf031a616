import type { OpenDocx } from '../../docx';

/** What a comment write did, as the decision log records it (replayed by undo, see ReviewService.undo). */
export type CommentOp =
  | { op: 'add'; target: { changeId: string } | { find: string; occurrence?: number }; author: string; date: string; text: string; commentId: string }
  | { op: 'reply'; parentId: string; author: string; date: string; text: string; commentId: string }
  | { op: 'resolve'; commentId: string; resolved: boolean };

/** Performs a comment write on an open draft; answers the id of the comment it wrote or changed. */
export function performCommentOp(doc: OpenDocx, op: CommentOp): string {
  switch (op.op) {
    case 'add':
      return doc.addComment(op.target, { author: op.author, date: op.date, text: op.text });
    case 'reply':
      return doc.replyToComment(op.parentId, { author: op.author, date: op.date, text: op.text });
    case 'resolve':
      doc.setCommentResolved(op.commentId, op.resolved);
      return op.commentId;
  }
}

/**
 * Comment threads on the changes redline edits just wrote: for each edit given a thread, its
 * first text comments on the edit's last change (the insertion of a replace, else its one
 * change) and the rest reply in that thread, all by the edits' author.
 */
export function addThreadsToEdits(
  doc: OpenDocx,
  written: readonly { editIndex: number; changeIds: string[] }[],
  threads: readonly (readonly string[] | undefined)[],
  by: { author: string; date: string },
): void {
  for (const { editIndex, changeIds } of written) {
    const thread = threads[editIndex];
    const changeId = changeIds[changeIds.length - 1];
    if (!thread?.length || !changeId) continue;
    const first = doc.addComment({ changeId }, { ...by, text: thread[0]! });
    for (const reply of thread.slice(1)) doc.replyToComment(first, { ...by, text: reply });
  }
}
