import { describe, expect, it } from 'vitest';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { createManualSource } from '../../testing/fixtures/sources';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

const shared = useTestDesk();

async function badge(token?: string) {
  const qs = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  const res = await fetch(`${shared.desk.url}/api/v1/badge.svg${qs}`);
  return { status: res.status, headers: res.headers, svg: await res.text() };
}
const issue = async () => (await shared.desk.api('POST', '/api/v1/workspace/badge-token')).body;

describe('the badge token', () => {
  it('none at first; POST issues one (201) with its badge URL and Markdown, then answers it unchanged (200)', async () => {
    const d = shared.desk;
    expect((await d.api('GET', '/api/v1/workspace/badge-token')).body).toEqual({ issued: false, token: null, issuedAt: null, badgeUrl: null, markdown: null });
    const first = await d.api('POST', '/api/v1/workspace/badge-token');
    expect(first.status).toBe(201);
    const { token } = first.body;
    expect(token).toMatch(/^dbt_[A-Za-z0-9_-]{32}$/);
    expect(token).not.toContain(d.token);
    const badgeUrl = `${d.url}/api/v1/badge.svg?token=${token}`;
    expect(first.body).toEqual({ issued: true, token, issuedAt: d.clock.now().toISOString(), badgeUrl, markdown: `![Desk health](${badgeUrl})` });
    const again = await d.api('POST', '/api/v1/workspace/badge-token');
    expect(again.status).toBe(200);
    expect(again.body.token).toBe(token);
    expect((await d.api('GET', '/api/v1/workspace/badge-token')).body).toEqual(first.body);
    const log = (await d.api('GET', '/api/v1/activity?kind=badge_token.issued')).body.activities;
    expect(log).toHaveLength(1);
    expect(log[0].detail).not.toContain(token);
  });

  it('rotation: the old token shows "unknown" at once, the new one the score', async () => {
    const d = shared.desk;
    const old = (await issue()).token;
    expect((await badge(old)).headers.get('x-badge-status')).toBe('ok');
    const rotated = await d.api('POST', '/api/v1/workspace/badge-token/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(old);
    const stale = await badge(old);
    expect(stale.status).toBe(200);
    expect(stale.headers.get('x-badge-status')).toBe('unknown');
    expect(stale.svg).toContain('desk health: unknown');
    expect((await badge(rotated.body.token)).svg).toContain('desk health: 100/100');
    expect((await d.api('GET', '/api/v1/activity?kind=badge_token.rotated')).body.activities).toHaveLength(1);
  });

  it('revocation: every badge shows "unknown"; revoking again writes nothing', async () => {
    const d = shared.desk;
    const { token } = await issue();
    const revoked = await d.api('DELETE', '/api/v1/workspace/badge-token');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ issued: false, token: null, issuedAt: null, badgeUrl: null, markdown: null });
    expect((await badge(token)).headers.get('x-badge-status')).toBe('unknown');
    expect((await d.api('GET', '/api/v1/workspace/badge-token')).body.issued).toBe(false);
    expect((await d.api('DELETE', '/api/v1/workspace/badge-token')).status).toBe(200);
    expect((await d.api('GET', '/api/v1/activity?kind=badge_token.revoked')).body.activities).toHaveLength(1);
  });

  it('the routes need the workspace token, and the badge token opens nothing else', async () => {
    const d = shared.desk;
    const { token } = await issue();
    for (const [method, path] of [
      ['GET', '/api/v1/workspace/badge-token'],
      ['POST', '/api/v1/workspace/badge-token/rotate'],
      ['DELETE', '/api/v1/workspace/badge-token'],
    ] as const) {
      await expectRejectedUnchanged(d, { method, path, token: null }, { status: 401, error: 'unauthorized' });
      await expectRejectedUnchanged(d, { method, path, token }, { status: 401, error: 'unauthorized' });
    }
    await expectRejectedUnchanged(d, { method: 'GET', path: '/api/v1/stats', token }, { status: 401 });
    await expectRejectedUnchanged(d, { method: 'POST', path: '/api/v1/workspace/badge-token/rotate', body: { asUserId: 'usr_nobody' } }, { status: 422, field: 'asUserId' });
    await expectRejectedUnchanged(d, { method: 'DELETE', path: '/api/v1/workspace/badge-token?asUserId=usr_nobody' }, { status: 422, field: 'asUserId' });
  });

  it('a member may rotate it and is the one logged', async () => {
    const d = shared.desk;
    await addMember(d, 'usr_kim', 'Kim Osei', 'admin');
    await issue();
    expect((await d.api('POST', '/api/v1/workspace/badge-token/rotate', { asUserId: 'usr_kim' })).status).toBe(200);
    expect((await d.api('GET', '/api/v1/activity?kind=badge_token.rotated')).body.activities[0].actorLabel).toBe('Kim Osei');
  });
});

describe('GET /api/v1/badge.svg', () => {
  it('shows the health score of GET /stats as an SVG, not cached, without an authorization header', async () => {
    const d = shared.desk;
    const { token } = await issue();
    // A source in error costs 10 points (GET /stats' own rule).
    const source = await createManualSource(d, { label: 'Broken feed' });
    await d.services.db.updateTable('sources').set({ status: 'error' }).where('id', '=', source.id).execute();
    const stats = (await d.api('GET', '/api/v1/stats')).body;
    expect(stats.healthScore).toBe(90);
    const res = await badge(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(res.svg).toContain('desk health: 90/100');
    expect(res.svg).toContain('fill="#4c1"');
  });

  it('answers a shields.io endpoint badge to a client that accepts only JSON', async () => {
    const { token } = await issue();
    const res = await fetch(`${shared.desk.url}/api/v1/badge.svg?token=${token}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual({ schemaVersion: 1, label: 'desk health', message: '100/100', color: '#4c1' });
    const unknown = await fetch(`${shared.desk.url}/api/v1/badge.svg?token=dbt_nope`, { headers: { accept: 'application/json' } });
    expect(await unknown.json()).toEqual({ schemaVersion: 1, label: 'desk health', message: 'unknown', color: '#9f9f9f' });
  });

  it('answers a grey "unknown" badge (200) for a missing, wrong, overlong or workspace token', async () => {
    const d = shared.desk;
    const { token } = await issue();
    for (const given of [undefined, '', 'dbt_wrong', `${token}x`, token.toUpperCase(), 'x'.repeat(5000), d.token]) {
      const res = await badge(given);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(res.headers.get('x-badge-status')).toBe('unknown');
      expect(res.svg).toContain('fill="#9f9f9f"');
      expect(res.svg).not.toContain('/100');
    }
  });
});
