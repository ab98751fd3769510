import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import { activityKeys } from '../features/activity/api';

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // A 4xx will not change by asking again; network hiccups and 5xx get two more tries.
        retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      },
    },
    mutationCache: new MutationCache({
      // Every successful change writes an activity row (ARCHITECTURE.md), so the log is stale after any mutation.
      onSuccess: () => client.invalidateQueries({ queryKey: activityKeys.all }),
    }),
  });
  return client;
}

export const queryClient = createQueryClient();

export function AppProviders({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
