import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../lib/auth';
import { Shell } from './Shell';
import { SignIn } from './SignIn';

/** Signed in: the app. Without a token, or once the API rejected it: the sign-in screen. */
export function App() {
  const status = useAuth((s) => s.status);
  const queryClient = useQueryClient();
  useEffect(() => {
    // Nothing fetched with a rejected token should show after signing in again.
    if (status !== 'signed-in') queryClient.clear();
  }, [status, queryClient]);
  return status === 'signed-in' ? <Shell /> : <SignIn />;
}
