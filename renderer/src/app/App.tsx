import { useQueryClient } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useAuth } from '../lib/auth';
import { useRescueMode } from '../lib/desk-mode';
import { RescuePage } from '../features/rescue/RescuePage';
import { createAppRouter } from './routes';
import { SignIn } from './SignIn';

type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Signed in: the routed app. Without a token, or once the API rejected it: the sign-in screen, while
 * the address bar keeps the page asked for, so signing in opens it.
 */
export function App({ router: given }: { router?: AppRouter }) {
  const status = useAuth((s) => s.status);
  const rescue = useRescueMode((s) => s.active);
  const queryClient = useQueryClient();
  // Created on first render, after lib/auth.ts has taken the token out of the address bar.
  const [router] = useState(() => given ?? createAppRouter(undefined, queryClient));
  useEffect(() => {
    // Nothing fetched with a rejected token should show after signing in again.
    if (status !== 'signed-in') queryClient.clear();
  }, [status, queryClient]);
  if (status !== 'signed-in') return <SignIn />;
  // The database failed its check at start: the rescue page instead of the app (no route works).
  // The loaders warm the client the pages read, whichever client the router was made with.
  return rescue ? <RescuePage /> : <RouterProvider router={router} context={{ queryClient }} />;
}
