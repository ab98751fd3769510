import { describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY, resolveAuth, tokenFromFragment, type AuthLocation } from './auth';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

const at = (hash: string, origin = 'http://127.0.0.1:4477'): AuthLocation => ({
  protocol: new URL(origin).protocol,
  origin,
  pathname: '/settings',
  search: '',
  hash,
});

describe('tokenFromFragment', () => {
  it('reads the token and keeps the rest of the fragment', () => {
    expect(tokenFromFragment('#token=abc')).toEqual({ token: 'abc', rest: '' });
    expect(tokenFromFragment('#token=abc&view=x')).toEqual({ token: 'abc', rest: '#view=x' });
    expect(tokenFromFragment('#view=x&token=a-b_c')).toEqual({ token: 'a-b_c', rest: '#view=x' });
  });

  it('finds nothing in an empty, unrelated or blank fragment', () => {
    expect(tokenFromFragment('')).toEqual({ token: null, rest: '' });
    expect(tokenFromFragment('#')).toEqual({ token: null, rest: '' });
    expect(tokenFromFragment('#loop')).toEqual({ token: null, rest: '#loop' });
    expect(tokenFromFragment('#token=')).toEqual({ token: null, rest: '' });
  });
});

describe('resolveAuth', () => {
  it('takes a fragment token, keeps it in storage and asks for the address bar to be cleaned', () => {
    const storage = memoryStorage();
    expect(resolveAuth(at('#token=t1'), storage)).toEqual({ baseUrl: 'http://127.0.0.1:4477', token: 't1', cleanedHash: '' });
    expect(storage.data.get(TOKEN_STORAGE_KEY)).toBe('t1');
  });

  it('a fresh fragment token replaces the stored one', () => {
    const storage = memoryStorage({ [TOKEN_STORAGE_KEY]: 'old' });
    expect(resolveAuth(at('#token=new'), storage).token).toBe('new');
    expect(storage.data.get(TOKEN_STORAGE_KEY)).toBe('new');
  });

  it('falls back to the stored token after a reload, leaving the URL alone', () => {
    const storage = memoryStorage({ [TOKEN_STORAGE_KEY]: 'kept' });
    expect(resolveAuth(at(''), storage)).toEqual({ baseUrl: 'http://127.0.0.1:4477', token: 'kept', cleanedHash: null });
  });

  it('has no token without fragment or storage', () => {
    expect(resolveAuth(at(''), memoryStorage()).token).toBeNull();
  });

  it('prefers what the Electron preload hands over, and does not store it', () => {
    const storage = memoryStorage({ [TOKEN_STORAGE_KEY]: 'kept' });
    const auth = resolveAuth(at('', 'file://'), storage, { baseUrl: 'http://127.0.0.1:5000/', token: 'from-preload' });
    expect(auth).toEqual({ baseUrl: 'http://127.0.0.1:5000', token: 'from-preload', cleanedHash: null });
    expect(storage.data.get(TOKEN_STORAGE_KEY)).toBe('kept');
  });

  it('with the preload, a token in the fragment is still removed from the address bar', () => {
    const storage = memoryStorage();
    const auth = resolveAuth(at('#token=stray'), storage, { baseUrl: 'http://127.0.0.1:5000', token: 'from-preload' });
    expect(auth.token).toBe('from-preload');
    expect(auth.cleanedHash).toBe('');
    expect(storage.data.size).toBe(0);
  });
});

describe('tokenFromFragment with odd input', () => {
  it('does not throw on a malformed escape', () => {
    expect(tokenFromFragment('#token=%E0%A4%A')).toEqual({ token: '%E0%A4%A', rest: '' });
  });
});
