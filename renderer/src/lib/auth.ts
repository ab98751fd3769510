import { create } from 'zustand';
import './desk-bridge'; // Electron: waits for the preload's URL and token before window.desk is read below

/**
 * Where the API is and which bearer token to send. Electron's preload hands both over
 * (`window.desk`); in a browser the token arrives once in the URL fragment
 * (`/#token=...`, printed by `npm start`) and is kept in sessionStorage for reloads.
 */

export const TOKEN_STORAGE_KEY = 'desk.token';

export interface AuthLocation {
  protocol: string;
  origin: string;
  pathname: string;
  search: string;
  hash: string;
}

export interface ResolvedAuth {
  baseUrl: string;
  token: string | null;
  /** The fragment with the token removed ('' when nothing else was in it); null when the URL needs no cleaning. */
  cleanedHash: string | null;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Reads `token` from a fragment such as `#token=abc` or `#token=abc&x=1`. */
export function tokenFromFragment(hash: string): { token: string | null; rest: string } {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!raw) return { token: null, rest: '' };
  // Split by hand so the rest of the fragment is kept exactly as it was.
  const parts = raw.split('&');
  const isToken = (part: string) => part === 'token' || part.startsWith('token=');
  const found = parts.find(isToken);
  const token = found ? safeDecode(found.slice('token='.length)).trim() || null : null;
  const rest = parts.filter((p) => !isToken(p)).join('&');
  return { token, rest: rest ? `#${rest}` : '' };
}

/** Preload first, then a fresh fragment token, then the one kept from earlier in this tab. */
export function resolveAuth(location: AuthLocation, storage: Pick<Storage, 'getItem' | 'setItem'>, bridge?: Partial<DeskBridge>): ResolvedAuth {
  const fallbackBase = location.protocol.startsWith('http') ? location.origin : '';
  const baseUrl = (bridge?.baseUrl || fallbackBase).replace(/\/+$/, '');
  const fragment = tokenFromFragment(location.hash);
  const cleanedHash = fragment.token ? fragment.rest : null;
  if (bridge?.token) return { baseUrl, token: bridge.token, cleanedHash };
  if (fragment.token) {
    storage.setItem(TOKEN_STORAGE_KEY, fragment.token);
    return { baseUrl, token: fragment.token, cleanedHash };
  }
  return { baseUrl, token: storage.getItem(TOKEN_STORAGE_KEY), cleanedHash: null };
}

type AuthStatus = 'signed-in' | 'no-token' | 'rejected';

interface AuthState {
  baseUrl: string;
  token: string | null;
  status: AuthStatus;
  /** The API answered 401: forget the token and show the sign-in screen. */
  reject(): void;
  /** A token pasted on the sign-in screen. */
  signIn(token: string): void;
  /**
   * The workspace token was rotated (Settings > Integrations): the old one is refused from now on,
   * so every later request sends the new one, and a reload of this tab keeps it. Stays signed in.
   */
  replaceToken(token: string): void;
}

/** Keeps the token out of the address bar, history and screenshots. */
function cleanAddressBar(cleanedHash: string): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', pathname + search + cleanedHash);
}

function initialAuth(): Pick<AuthState, 'baseUrl' | 'token' | 'status'> {
  if (typeof window === 'undefined') return { baseUrl: '', token: null, status: 'no-token' };
  const auth = resolveAuth(window.location, window.sessionStorage, window.desk);
  if (auth.cleanedHash !== null) cleanAddressBar(auth.cleanedHash);
  return { baseUrl: auth.baseUrl, token: auth.token, status: auth.token ? 'signed-in' : 'no-token' };
}

export const useAuth = create<AuthState>()((set) => ({
  ...initialAuth(),
  reject() {
    window.sessionStorage.removeItem(TOKEN_STORAGE_KEY);
    set({ token: null, status: 'rejected' });
  },
  signIn(token) {
    window.sessionStorage.setItem(TOKEN_STORAGE_KEY, token);
    set({ token, status: 'signed-in' });
  },
  replaceToken(token) {
    window.sessionStorage.setItem(TOKEN_STORAGE_KEY, token);
    // Electron hands the token over through window.desk: keep it current for anything that reads it later.
    if (window.desk?.token) window.desk = { ...window.desk, token };
    set({ token, status: 'signed-in' });
  },
}));

if (typeof window !== 'undefined') {
  // A printed link opened in a tab that already shows Desk changes only the fragment: no reload.
  window.addEventListener('hashchange', () => {
    const { token, rest } = tokenFromFragment(window.location.hash);
    if (!token) return;
    cleanAddressBar(rest);
    if (!window.desk?.token) useAuth.getState().signIn(token);
  });
}
