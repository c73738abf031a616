import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrgRole } from '../../contract/auth';
import { ROUTES } from '../../contract/routes';
import { callApi } from '../api/client';
import { sessionStore } from '../auth/session';

/**
 * Sessions are the user's, across organisations; members belong to the organisation in
 * x-org-id, so their key starts with it (switching organisation never shows another's list).
 */
export const accountKeys = {
  sessions: ['account', 'sessions'] as const,
  members: (orgId: string) => ['org', orgId, 'members'] as const,
};

export function useSessions() {
  return useQuery({ queryKey: accountKeys.sessions, queryFn: ({ signal }) => callApi(ROUTES.listSessions, { signal }) });
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => callApi(ROUTES.endSession, { params: { sessionId } }),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: () => callApi(ROUTES.signOutEverywhere) });
}

export function useMembers() {
  const orgId = sessionStore.get()?.orgId ?? '';
  return useQuery({ queryKey: accountKeys.members(orgId), queryFn: ({ signal }) => callApi(ROUTES.listMembers, { signal }) });
}

export function useInviteMember() {
  const client = useQueryClient();
  const orgId = sessionStore.get()?.orgId ?? '';
  return useMutation({
    mutationFn: (body: { email: string; role: OrgRole }) => callApi(ROUTES.inviteMember, { body }),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.members(orgId) }),
  });
}

export function useRemoveMember() {
  const client = useQueryClient();
  const orgId = sessionStore.get()?.orgId ?? '';
  return useMutation({
    mutationFn: (userId: string) => callApi(ROUTES.removeMember, { params: { userId } }),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.members(orgId) }),
  });
}
