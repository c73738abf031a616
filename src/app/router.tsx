import { createBrowserRouter, Navigate } from 'react-router';
import { RequireSession } from './auth/RequireSession';
import { importWhenOnline } from './import-when-online';
import { RouteError } from './shell/RouteError';
import { SignInPage } from './sign-in/SignInPage';

/**
 * Sign-in is part of the entry chunk; the documents list and the review page are loaded on
 * demand, so the first page a signed-out lawyer sees stays small (docx-preview alone is
 * larger than the whole sign-in route).
 */
export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage />, errorElement: <RouteError /> },
  {
    // The assistant connector's sign-in and consent (OAuth authorization): outside the signed-in frame.
    path: '/connector/authorize',
    lazy: () => importWhenOnline(() => import('./connector/ConnectorAuthorizePage')).then((m) => ({ Component: m.ConnectorAuthorizePage })),
    errorElement: <RouteError />,
  },
  {
    // Where a provider sign-in lands with its single-use handoff (trades it for a session).
    path: '/sign-in/complete',
    lazy: () => importWhenOnline(() => import('./sign-in/SignInCompletePage')).then((m) => ({ Component: m.SignInCompletePage })),
    errorElement: <RouteError />,
  },
  {
    // The signed-in frame is lazy too: it is the first thing that needs the API client.
    lazy: () =>
      importWhenOnline(() => import('./shell/AppLayout')).then((m) => ({
        Component: () => (
          <RequireSession>
            <m.AppLayout />
          </RequireSession>
        ),
      })),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/documents" replace /> },
      {
        path: '/documents',
        lazy: () => importWhenOnline(() => import('./documents/DocumentsPage')).then((m) => ({ Component: m.DocumentsPage })),
      },
      {
        path: '/documents/:id',
        lazy: () => importWhenOnline(() => import('./review/ReviewPage')).then((m) => ({ Component: m.ReviewPage })),
      },
      {
        path: '/account/sessions',
        lazy: () => importWhenOnline(() => import('./account/SessionsPage')).then((m) => ({ Component: m.SessionsPage })),
      },
      {
        path: '/account/members',
        lazy: () => importWhenOnline(() => import('./account/MembersPage')).then((m) => ({ Component: m.MembersPage })),
      },
      { path: '*', lazy: () => importWhenOnline(() => import('./shell/NotFoundPage')).then((m) => ({ Component: m.NotFoundPage })) },
    ],
  },
]);
