import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentRow } from '../../contract/document';
import { ROUTES } from '../../contract/routes';
import { sessionStore, useSession } from '../auth/session';
import { callApi } from './client';
import { readReview, type ReviewData } from './review';
import { uploadForm, type UploadProgress } from './upload';

/**
 * Query keys start with the organisation: switching organisation must never show one
 * organisation's documents under another's name, even for a frame.
 */
export const queryKeys = {
  uploads: (orgId: string) => ['org', orgId, 'uploads'] as const,
  /** Under `uploads`, so every change to the uploads refreshes the progress too. */
  draftProgress: (orgId: string) => ['org', orgId, 'uploads', 'progress'] as const,
  review: (orgId: string, documentId: string) => ['org', orgId, 'review', documentId] as const,
};

function orgId(): string {
  return sessionStore.get()?.orgId ?? '';
}

/** Every upload of the organisation, following the cursor to the end (the list is grouped by series, so it needs them all). */
export function useUploads() {
  // Subscribed: switching organisation re-renders the list with the other organisation's key.
  const org = useSession()?.orgId ?? '';
  return useQuery({
    queryKey: queryKeys.uploads(org),
    queryFn: async ({ signal }) => {
      const items: DocumentRow[] = [];
      let cursor: string | undefined;
      do {
        const page = await callApi(ROUTES.listUploads, { query: { limit: 100, cursor }, signal });
        items.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return items;
    },
  });
}

/**
 * Where each series' newest working draft stands: one request for the whole documents page.
 * A draft the service has not counted yet answers `counts: null`; ask again shortly.
 */
export function useDraftProgress() {
  // Subscribed: switching organisation re-renders the list with the other organisation's key.
  const org = useSession()?.orgId ?? '';
  return useQuery({
    queryKey: queryKeys.draftProgress(org),
    queryFn: ({ signal }) => callApi(ROUTES.listDraftProgress, { signal }),
    refetchInterval: (query) => (query.state.data?.items.some((i) => i.counts === null) ? 3000 : false),
    // Decisions are made on the review page: coming back to the list should show them.
    staleTime: 0,
  });
}

/** After any change to uploads, the list is stale: refetch it rather than guess the new order. */
export function useInvalidateUploads() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.uploads(orgId()) });
}

export function useCreateUpload() {
  const invalidate = useInvalidateUploads();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (p: UploadProgress) => void }) => {
      const form = new FormData();
      form.set('purpose', 'source_doc');
      form.set('file', file, file.name);
      return uploadForm(ROUTES.createUpload, {}, form, onProgress);
    },
    onSettled: invalidate,
  });
}

export function useCreateVersion() {
  const invalidate = useInvalidateUploads();
  return useMutation({
    mutationFn: ({ uploadId, file, onProgress }: { uploadId: string; file: File; onProgress: (p: UploadProgress) => void }) => {
      const form = new FormData();
      form.set('file', file, file.name);
      return uploadForm(ROUTES.createVersion, { uploadId }, form, onProgress);
    },
    onSettled: invalidate,
  });
}

/**
 * Rename, optimistically: the new name shows at once and is rolled back if the service
 * refuses it (TanStack Query's "optimistic update via the cache" recipe).
 */
export function useRenameUpload() {
  const client = useQueryClient();
  const key = queryKeys.uploads(orgId());
  return useMutation({
    mutationFn: ({ uploadId, fileName }: { uploadId: string; fileName: string }) =>
      callApi(ROUTES.renameUpload, { params: { uploadId }, body: { fileName } }),
    onMutate: async ({ uploadId, fileName }) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<DocumentRow[]>(key);
      client.setQueryData<DocumentRow[]>(key, (rows) => rows?.map((r) => (r.id === uploadId ? { ...r, fileName } : r)));
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useStartWorkingDraft() {
  const invalidate = useInvalidateUploads();
  return useMutation({
    mutationFn: (uploadId: string) => callApi(ROUTES.startWorkingDraft, { params: { uploadId } }),
    onSettled: invalidate,
  });
}

export function useDeleteSeries() {
  const invalidate = useInvalidateUploads();
  return useMutation({
    mutationFn: (uploadId: string) => callApi(ROUTES.deleteSeries, { params: { uploadId } }),
    onSettled: invalidate,
  });
}

export function useReview(documentId: string) {
  const org = orgId();
  return useQuery<ReviewData>({
    queryKey: queryKeys.review(org, documentId),
    queryFn: ({ signal }) => readReview(documentId, signal),
    // The review is reconciled by hand after every batch; a background refetch on window focus
    // would race the decision queue for no benefit.
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
}
