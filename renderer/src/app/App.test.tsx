import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY, useAuth } from '../lib/auth';
import { json, fakeFetch, noFake } from '../testing/fake-api';
import { renderAppAt } from '../testing/render';
import { AREAS, areaOf, homePath } from './routes';
import { tokenFromPaste } from './SignIn';

afterEach(() => window.sessionStorage.clear());

const signedIn = () => useAuth.setState({ token: 't', status: 'signed-in' });

describe('App', () => {
  it('without a token shows where to get one', () => {
    useAuth.setState({ token: null, status: 'no-token' });
    renderAppAt('/');
    expect(screen.getByRole('heading', { name: 'Open the link printed by npm start' })).toBeTruthy();
  });

  it('a 401 from the API forgets the token and returns to the sign-in screen', async () => {
    window.sessionStorage.setItem(TOKEN_STORAGE_KEY, 'stale');
    useAuth.setState({ token: 'stale', status: 'signed-in' });
    fakeFetch(() => json(401, { error: 'unauthorized', message: 'Invalid bearer token' }));
    renderAppAt('/settings');
    expect(await screen.findByRole('heading', { name: 'Your access link is no longer valid' })).toBeTruthy();
    expect(window.sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(useAuth.getState().token).toBeNull();
  });

  it('lists every area with a page as a link and marks the current area', async () => {
    signedIn();
    fakeFetch(() => json(200, { activities: [], nextCursor: null }));
    renderAppAt('/activity');
    await screen.findByRole('heading', { level: 1, name: 'Activity' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = [...nav.querySelectorAll('a')];
    expect(links.map((a) => a.textContent)).toEqual(AREAS.filter((r) => r.page).map((r) => r.label));
    expect(nav.querySelectorAll('[aria-disabled="true"]').length).toBe(AREAS.filter((r) => !r.page).length);
    expect(links.find((a) => a.getAttribute('aria-current') === 'page')?.textContent).toBe('Activity');
  });

  it('/ opens the start page: Today (Home)', async () => {
    signedIn();
    fakeFetch(noFake);
    const router = renderAppAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/today'));
    expect(homePath()).toBe('/today');
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
  });

  it('an unknown path is not found, inside the shell', async () => {
    signedIn();
    fakeFetch(noFake);
    renderAppAt('/nope');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
  });
});

describe('areas', () => {
  it('a path belongs to its area and its sub-paths, and nothing else', () => {
    expect(areaOf('/settings')?.label).toBe('Settings');
    expect(areaOf('/settings/focus')?.label).toBe('Settings');
    expect(areaOf('/sources/src_1')?.label).toBe('Sources');
    expect(areaOf('/settingsx')).toBeUndefined();
    expect(areaOf('/nope')).toBeUndefined();
  });

  it('home is the first area with a page', () => {
    expect(homePath()).toBe(AREAS.find((r) => r.page)!.to);
    expect(homePath([{ to: '/a', label: 'A', icon: 'today', page: false }])).toBe('/settings');
  });
});

describe('tokenFromPaste', () => {
  it('takes the token from a pasted link or a bare token', () => {
    expect(tokenFromPaste('http://127.0.0.1:4477/#token=DQJ0Q-zyOqCjpyjpk5mPj4Mat')).toBe('DQJ0Q-zyOqCjpyjpk5mPj4Mat');
    expect(tokenFromPaste('  Open: http://127.0.0.1:4477/#token=abc ')).toBe('abc');
    expect(tokenFromPaste('DQJ0Q-zyOqCjpyjpk5mPj4MatmvWOswn4v3CGXJByaY')).toBe('DQJ0Q-zyOqCjpyjpk5mPj4MatmvWOswn4v3CGXJByaY');
  });

  it('refuses text that is neither', () => {
    expect(tokenFromPaste('')).toBeNull();
    expect(tokenFromPaste('http://127.0.0.1:4477/')).toBeNull();
    expect(tokenFromPaste('hello world')).toBeNull();
  });
});
