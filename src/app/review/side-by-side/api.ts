import { useQuery } from '@tanstack/react-query';
import { ROUTES } from '../../../contract/routes';
import type { SideBySideAnswer } from '../../../contract/side-by-side';
import { callApi } from '../../api/client';
import { sessionStore } from '../../auth/session';

/**
 * The two views of a draft read side by side, for the content the page shows: a decision changes
 * the draft, and with it both views and the mapping, so the content hash is part of the key.
 */
export function useSideBySide(documentId: string, contentSha256: string | null, enabled: boolean) {
  return useQuery<SideBySideAnswer>({
    queryKey: ['side-by-side', sessionStore.get()?.orgId ?? '', documentId, contentSha256],
    queryFn: () => callApi(ROUTES.getSideBySide, { params: { documentId } }),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    // The page keeps showing the last views while the next ones come, as the single view does.
    placeholderData: (previous) => previous,
  });
}
