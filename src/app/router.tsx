import { createBrowserRouter, Navigate } from 'react-router';
import { RequireSession } from './auth/RequireSession';
import { RouteError } from './routes/RouteError';
import { SignInPage } from './routes/SignInPage';

/**
 * Sign-in is part of the entry chunk; the documents list and the review page are loaded on
 * demand, so the first page a signed-out lawyer sees stays small (docx-preview alone is
 * larger than the whole sign-in route).
 */
export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage />, errorElement: <RouteError /> },
  {
    // The signed-in frame is lazy too: it is the first thing that needs the API client.
    lazy: () =>
      import('./routes/AppLayout').then((m) => ({
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
        lazy: () => import('./routes/DocumentsPage').then((m) => ({ Component: m.DocumentsPage })),
      },
      {
        path: '/documents/:id',
        lazy: () => import('./routes/ReviewPage').then((m) => ({ Component: m.ReviewPage })),
      },
      { path: '*', lazy: () => import('./routes/NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
    ],
  },
]);
