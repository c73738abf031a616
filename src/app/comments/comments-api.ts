import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddCommentBody, Comment, CommentsResponse } from '../../contract/comments';
import type { ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import { ROUTES } from '../../contract/routes';
import { callApi } from '../api/client';
import { queryKeys } from '../api/hooks';
import { sessionStore } from '../auth/session';

const orgId = () => sessionStore.get()?.orgId ?? '';

/** The comments of a draft as its content now stands (the content hash is part of the key). */
function commentsKey(documentId: string, contentSha256: string | null) {
  return ['org', orgId(), 'comments', documentId, contentSha256 ?? ''] as const;
}

export function useComments(review: ReviewMinimalResponse) {
  const documentId = review.document.id;
  return useQuery({
    queryKey: commentsKey(documentId, review.document.contentSha256),
    queryFn: async ({ signal }) => (await callApi(ROUTES.listComments, { params: { documentId }, signal })).comments,
    staleTime: Infinity,
  });
}

export type CommentWrite =
  | { kind: 'add'; body: AddCommentBody }
  | { kind: 'reply'; commentId: string; text: string }
  | { kind: 'resolve'; commentId: string; resolved: boolean };

/**
 * Writes a comment and puts the answer where the page reads it: the review (new content, same
 * track) and the comments of that content, so the draft and the sidebar show it at once.
 */
export function useCommentWriter(documentId: string) {
  const queryClient = useQueryClient();
  return async (write: CommentWrite): Promise<CommentsResponse> => {
    const params = { documentId };
    const answer =
      write.kind === 'add'
        ? await callApi(ROUTES.addComment, { params, body: write.body })
        : write.kind === 'reply'
          ? await callApi(ROUTES.replyToComment, { params: { ...params, commentId: write.commentId }, body: { text: write.text } })
          : await callApi(ROUTES.resolveComment, { params: { ...params, commentId: write.commentId }, body: { resolved: write.resolved } });
    const { comments, commentId: _written, ...review } = answer;
    queryClient.setQueryData<Comment[]>(commentsKey(documentId, answer.document.contentSha256), comments);
    queryClient.setQueryData<ReviewResponse>(queryKeys.review(orgId(), documentId), review);
    return answer;
  };
}

/** Threads: each first comment with its replies, in file order. */
export interface Thread {
  root: Comment;
  replies: Comment[];
}

export function threadsOf(comments: readonly Comment[]): Thread[] {
  const roots = comments.filter((c) => c.parentId === null || !comments.some((p) => p.id === c.parentId));
  return roots.map((root) => ({ root, replies: comments.filter((c) => c.parentId === root.id) }));
}
