import type { z } from 'zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CHANGES_HEADER, ComparisonIdentical, NoUntrackedEdits, UntrackedPending, UntrackedReport, ComparisonSummary, type CompareView, type WordCompareOptions } from '../../contract/compare';
import { DocumentRow } from '../../contract/document';
import { ROUTES, type RouteSpec } from '../../contract/routes';
import { sessionStore } from '../auth/session';
import { callApi, fetchRoute, readAnswer } from './client';
import { useInvalidateUploads } from './hooks';

/** A working draft made by a comparison, and how many differences it carries (0: identical). */
export interface ComparisonDraft {
  document: DocumentRow;
  /** From the Redline-Changes header; null if the answer did not say. */
  changes: number | null;
}

/** The untracked check of a version: done, or still running (ask again after `retryAfterSeconds`). */
export type UntrackedCheck = { state: 'ready'; report: UntrackedReport } | UntrackedPending;

export const compareQueryKeys = {
  untracked: (orgId: string, uploadId: string) => ['org', orgId, 'untracked', uploadId] as const,
  upload: (orgId: string, uploadId: string) => ['org', orgId, 'upload', uploadId] as const,
  comparison: (orgId: string, draftId: string) => ['org', orgId, 'comparison', draftId] as const,
  progress: (orgId: string) => ['org', orgId, 'comparison-progress'] as const,
};

function orgId(): string {
  return sessionStore.get()?.orgId ?? '';
}

/**
 * The answer of a route that makes a draft from a comparison: the draft (201), or, when the
 * comparison found nothing (200), what `nothing` says about it: no draft was made.
 */
export async function comparisonAnswer<T>(spec: RouteSpec, response: Response, nothing: z.ZodType<T>): Promise<ComparisonDraft | T> {
  if (response.status === 200) return readAnswer(spec, response, nothing);
  const document = await readAnswer(spec, response, DocumentRow);
  const header = response.headers.get(CHANGES_HEADER);
  return { document, changes: header !== null && /^\d+$/.test(header) ? Number(header) : null };
}

/**
 * POST /uploads/{uploadId}/compare: the differences of `uploadId` since `against`, as a new
 * working draft; or, when the two are identical (200), that answer and no draft.
 */
export function useCompareVersions() {
  const invalidate = useInvalidateUploads();
  return useMutation({
    mutationFn: async ({ uploadId, against, author, view, options }: {
      uploadId: string; against: string; author?: string; view?: CompareView; options?: WordCompareOptions;
    }): Promise<ComparisonDraft | ComparisonIdentical> => {
      const spec = ROUTES.compareVersions;
      const response = await fetchRoute(spec, { params: { uploadId }, body: { against, ...(author ? { author } : {}), ...(view ? { view } : {}), ...(options ? { options } : {}) } });
      return comparisonAnswer(spec, response, ComparisonIdentical);
    },
    onSettled: invalidate,
  });
}

/**
 * POST /uploads/{uploadId}/untracked/working-draft: the version with its untracked edits as
 * tracked changes; or, when it has none (200), that answer and no draft.
 */
export function useUntrackedWorkingDraft() {
  const invalidate = useInvalidateUploads();
  return useMutation({
    mutationFn: async (uploadId: string): Promise<ComparisonDraft | NoUntrackedEdits> => {
      const spec = ROUTES.untrackedWorkingDraft;
      return comparisonAnswer(spec, await fetchRoute(spec, { params: { uploadId } }), NoUntrackedEdits);
    },
    onSettled: invalidate,
  });
}

/**
 * The untracked check of a version, asked again while the service answers 202 (after its
 * Retry-After). A finished check never changes (versions are immutable), so it is not refetched.
 */
export function useUntrackedCheck(uploadId: string | null) {
  const org = orgId();
  return useQuery<UntrackedCheck>({
    queryKey: compareQueryKeys.untracked(org, uploadId ?? ''),
    enabled: uploadId !== null,
    queryFn: async ({ signal }) => {
      const spec = ROUTES.getUntracked;
      const response = await fetchRoute(spec, { params: { uploadId: uploadId ?? '' }, signal });
      if (response.status === 202) return readAnswer(spec, response, UntrackedPending);
      return { state: 'ready', report: await readAnswer(spec, response, UntrackedReport) };
    },
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? query.state.data.retryAfterSeconds * 1000 : false),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** One upload row (the versions a comparison names), or nothing when `uploadId` is null. */
export function useUpload(uploadId: string | null) {
  const org = orgId();
  return useQuery<DocumentRow>({
    queryKey: compareQueryKeys.upload(org, uploadId ?? ''),
    enabled: uploadId !== null,
    queryFn: ({ signal }) => callApi(ROUTES.getUpload, { params: { uploadId: uploadId ?? '' }, signal }),
    staleTime: 60_000,
  });
}

/**
 * What made a comparison's draft (the view, the pending changes of each version and what was done
 * with them); null for a draft made before comparisons kept it (404). It never changes.
 */
export function useComparisonSummary(draftId: string | null) {
  const org = orgId();
  return useQuery<ComparisonSummary | null>({
    queryKey: compareQueryKeys.comparison(org, draftId ?? ''),
    enabled: draftId !== null,
    queryFn: async ({ signal }) => {
      const spec = ROUTES.getComparison;
      const response = await fetchRoute(spec, { params: { uploadId: draftId ?? '' }, signal });
      if (response.status === 404) return null;
      return readAnswer(spec, response, ComparisonSummary);
    },
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** Where each series' comparison of its latest version stands (GET /comparisons/progress), for the documents page. */
export function useComparisonProgress() {
  const org = orgId();
  return useQuery({
    queryKey: compareQueryKeys.progress(org),
    queryFn: ({ signal }) => callApi(ROUTES.listComparisonProgress, { signal }),
    refetchInterval: (query) => (query.state.data?.items.some((i) => i.counts === null) ? 3000 : false),
    // Decisions are made on the review page: coming back to the list should show them.
    staleTime: 0,
  });
}
