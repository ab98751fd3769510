import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { BadgeSection } from './BadgeSection';

type Info = Schema<'BadgeTokenInfo'>;
const BASE = 'http://127.0.0.1:4477';
const NONE: Info = { issued: false, token: null, issuedAt: null, badgeUrl: null, markdown: null };
const infoOf = (token: string): Info => {
  const badgeUrl = `${BASE}/api/v1/badge.svg?token=${token}`;
  return { issued: true, token, issuedAt: new Date().toISOString(), badgeUrl, markdown: `![Desk health](${badgeUrl})` };
};

/** A stateful badge-token API: issue, rotate (a new token each time), revoke. */
function fakeBadge(initial: Info) {
  let info = initial;
  let n = 0;
  return fakeFetch((call) => {
    const { method, path } = call;
    if (path === '/api/v1/workspace/badge-token' && method === 'GET') return json(200, info);
    if (path === '/api/v1/workspace/badge-token' && method === 'POST') {
      if (info.issued) return json(200, info);
      info = infoOf(`dbt_first${++n}`);
      return json(201, info);
    }
    if (path === '/api/v1/workspace/badge-token/rotate' && method === 'POST') {
      info = infoOf(`dbt_rotated${++n}`);
      return json(200, info);
    }
    if (path === '/api/v1/workspace/badge-token' && method === 'DELETE') {
      info = NONE;
      return json(200, info);
    }
    if (method === 'GET' && path === '/api/v1/activity') return json(200, { activities: [], nextCursor: null });
    return noFake(call);
  });
}


const section = () => screen.getByRole('region', { name: 'Health badge' });

describe('Settings > Health badge', () => {
  it('without a token offers to create one; then shows the live badge and the Markdown to paste', async () => {
    const desk = fakeBadge(NONE);
    renderWithApp(<BadgeSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create badge' }));
    const img = await within(section()).findByRole('img', { name: 'Desk health badge' });
    expect(img.getAttribute('src')).toBe(`${BASE}/api/v1/badge.svg?token=dbt_first1`);
    expect((screen.getByLabelText('Markdown') as HTMLInputElement).value).toBe(`![Desk health](${BASE}/api/v1/badge.svg?token=dbt_first1)`);
    expect((screen.getByLabelText('Badge URL') as HTMLInputElement).value).toBe(`${BASE}/api/v1/badge.svg?token=dbt_first1`);
    expect(screen.getByRole('button', { name: 'Copy badge markdown' })).toBeTruthy();
    expect(desk.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/v1/workspace/badge-token']);
  });

  it('rotates only after confirming, and shows the new badge URL', async () => {
    const desk = fakeBadge(infoOf('dbt_old'));
    renderWithApp(<BadgeSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Rotate token' }));
    expect(desk.calls.some((c) => c.path.endsWith('/rotate'))).toBe(false);
    fireEvent.click(within(screen.getByRole('group', { name: /Rotate the badge token\?/ })).getByRole('button', { name: 'Rotate' }));
    await waitFor(() => expect((screen.getByLabelText('Markdown') as HTMLInputElement).value).toContain('dbt_rotated1'));
    expect(screen.getByRole('img', { name: 'Desk health badge' }).getAttribute('src')).not.toContain('dbt_old');
    expect(desk.calls.filter((c) => c.path.endsWith('/rotate'))).toHaveLength(1);
  });

  it('turns the badge off after confirming', async () => {
    const desk = fakeBadge(infoOf('dbt_live'));
    renderWithApp(<BadgeSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off badge' }));
    fireEvent.click(within(screen.getByRole('group', { name: /Turn the badge off\?/ })).getByRole('button', { name: 'Turn off' }));
    await screen.findByRole('button', { name: 'Create badge' });
    expect(screen.queryByRole('img', { name: 'Desk health badge' })).toBeNull();
    expect(desk.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
