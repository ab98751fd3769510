// The base styles first: everything imported after (app, components, features) builds on them.
import './styles/base.css';
import './styles/forms.css';
import './styles/components.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { AppProviders, queryClient } from './app/providers';
import { createAppRouter } from './app/routes';
import { useAuth } from './lib/auth';

// The router starts loading the page asked for (its chunk and its first reads, route-loaders.ts)
// before React's first render, not from the first render's effects: the requests then leave while
// the shell renders instead of after it (npm run bench: a page's data started ~100 ms later).
// RouterProvider loads again on mount; that joins the chunk and the reads already in flight.
const router = createAppRouter(undefined, queryClient);
if (useAuth.getState().status === 'signed-in') void router.load();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <App router={router} />
    </AppProviders>
  </StrictMode>,
);
