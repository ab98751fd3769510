import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { App } from '../app/App';
import { AppProviders, createQueryClient } from '../app/providers';
import { createAppRouter } from '../app/routes';

/**
 * Renders UI inside the app's providers, with a fresh query client so no test sees another's cache, and
 * a router (links, navigation) at `path` whose only route renders `ui`.
 */
export function renderWithApp(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const router = createRouter({ routeTree: createRootRoute({ component: () => ui }), history: createMemoryHistory({ initialEntries: [path] }) });
  return render(
    <AppProviders client={createQueryClient()}>
      {/* The app's Register types links against the app router; this one takes any path. */}
      <RouterProvider router={router as never} />
    </AppProviders>,
  );
}

/** Renders the whole app (sign-in gate, shell, routes) at `path`, as opening that URL does. Returns the router. */
export function renderAppAt(path: string) {
  const client = createQueryClient();
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }), client);
  render(
    <AppProviders client={client}>
      <App router={router} />
    </AppProviders>,
  );
  return router;
}
