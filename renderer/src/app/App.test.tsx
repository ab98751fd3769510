import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY, useAuth } from '../lib/auth';
import { useRouter } from '../lib/router';
import { json, fakeFetch } from '../testing/fake-api';
import { cleanUpAfterEach, renderWithApp } from '../testing/render';
import { App } from './App';
import { ROUTES, homePath, matchRoute } from './routes';
import { tokenFromPaste } from './SignIn';

cleanUpAfterEach();
afterEach(() => window.sessionStorage.clear());

const renderApp = () => renderWithApp(<App />);

describe('App', () => {
  it('without a token shows where to get one', () => {
    useAuth.setState({ token: null, status: 'no-token' });
    renderApp();
    expect(screen.getByRole('heading', { name: 'Open the link printed by npm start' })).toBeTruthy();
  });

  it('a 401 from the API forgets the token and returns to the sign-in screen', async () => {
    window.sessionStorage.setItem(TOKEN_STORAGE_KEY, 'stale');
    useAuth.setState({ token: 'stale', status: 'signed-in' });
    useRouter.setState({ path: '/settings' });
    fakeFetch(() => json(401, { error: 'unauthorized', message: 'Invalid bearer token' }));
    renderApp();
    expect(await screen.findByRole('heading', { name: 'Your access link is no longer valid' })).toBeTruthy();
    expect(window.sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(useAuth.getState().token).toBeNull();
  });

  it('lists areas without a page as coming soon, not as links', () => {
    useAuth.setState({ token: 't', status: 'signed-in' });
    useRouter.setState({ path: '/activity' });
    fakeFetch(() => json(200, { activities: [] }));
    renderApp();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = [...nav.querySelectorAll('a')].map((a) => a.textContent);
    expect(links).toEqual(ROUTES.filter((r) => r.page).map((r) => r.label));
    expect(nav.querySelectorAll('[aria-disabled="true"]').length).toBe(ROUTES.filter((r) => !r.page).length);
  });
});

describe('routes', () => {
  it('matches a path and its sub-paths, and nothing else', () => {
    expect(matchRoute('/settings')?.label).toBe('Settings');
    expect(matchRoute('/settings/')?.label).toBe('Settings');
    expect(matchRoute('/activity/x')?.label).toBe('Activity');
    expect(matchRoute('/settingsx')).toBeUndefined();
    expect(matchRoute('/nope')).toBeUndefined();
  });

  it('home is the first area with a page', () => {
    expect(homePath()).toBe(ROUTES.find((r) => r.page)!.path);
    expect(homePath([{ path: '/a', label: 'A', icon: 'today' }])).toBe('/settings');
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
