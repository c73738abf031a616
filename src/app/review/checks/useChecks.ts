import { useQuery } from '@tanstack/react-query';
import type { CheckFinding, CheckView } from '../../../contract/checks';
import { ROUTES } from '../../../contract/routes';
import { callApi } from '../../api/client';
import { sessionStore } from '../../auth/session';

/**
 * The checks of one view of the draft as it stands. Keyed by the content hash: a decision or an
 * edit is a new content and so a new ask; the same content is never asked twice.
 */
export function useChecks(documentId: string, contentSha256: string | null, view: CheckView) {
  const org = sessionStore.get()?.orgId ?? '';
  return useQuery<CheckFinding[]>({
    queryKey: ['org', org, 'checks', documentId, contentSha256, view],
    queryFn: async ({ signal }) => (await callApi(ROUTES.checkDocument, { params: { documentId }, query: { view }, signal })).findings,
    enabled: contentSha256 !== null,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
