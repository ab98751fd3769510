import { create } from 'zustand';

/**
 * A tiny path router: the current path lives in a zustand store and in the address bar (history API);
 * the server answers every non-API path with index.html. Under file:// (a packaged window loading
 * the files directly) the path is kept in memory only.
 */

const usesHistory = () => typeof window !== 'undefined' && window.location.protocol.startsWith('http');

interface RouterState {
  path: string;
  navigate(path: string, options?: { replace?: boolean }): void;
}

export const useRouter = create<RouterState>()((set, get) => ({
  path: usesHistory() ? window.location.pathname : '/',
  navigate(path, options) {
    if (path === get().path) return;
    if (usesHistory()) {
      const url = path + window.location.search + window.location.hash;
      if (options?.replace) window.history.replaceState(null, '', url);
      else window.history.pushState(null, '', url);
    }
    set({ path });
  },
}));

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => useRouter.setState({ path: window.location.pathname }));
}

export const navigate = (path: string, options?: { replace?: boolean }) => useRouter.getState().navigate(path, options);
