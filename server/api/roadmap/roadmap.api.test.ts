import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../core/clock';
import { ROADMAP_ITEMS } from '../../domain/roadmap/items';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';
import { PUBLIC_CACHE_CONTROL } from '../public/public-http';

const shared = useTestDesk();
const [first, second] = ROADMAP_ITEMS;

async function vote(key: string, asUserId?: string) {
  return shared.desk.api('POST', `/api/v1/roadmap-items/${key}/vote`, asUserId === undefined ? undefined : { asUserId });
}
const votes = async () => (await shared.desk.api('GET', '/api/v1/roadmap-votes', undefined, null)).body;
const itemVotes = async (key: string) => (await votes()).items.find((i: { key: string }) => i.key === key);

describe('GET /api/v1/roadmap-items (public)', () => {
  it('answers the phases Now, Next, Later with 12-20 items, without a token, cacheable', async () => {
    const res = await shared.desk.api('GET', '/api/v1/roadmap-items', undefined, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    expect(res.body.phases.map((p: { key: string }) => p.key)).toEqual(['now', 'next', 'later']);
    expect(res.body.total).toBe(ROADMAP_ITEMS.length);
    expect(res.body.total).toBeGreaterThanOrEqual(12);
    expect(res.body.total).toBeLessThanOrEqual(20);
    const phase = res.body.phases[0];
    expect(phase.count).toBe(phase.items.length);
    expect(phase.items[0]).toEqual({ key: first.key, title: first.title, description: first.description, status: 'in_progress', phase: 'now' });
    const keys = res.body.phases.flatMap((p: { items: { key: string }[] }) => p.items.map((i) => i.key));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('voting', () => {
  it('one vote per member and item: a second vote changes nothing; votes show in the public counts and the activity log', async () => {
    const d = shared.desk;
    await addMember(d, 'usr_ed', 'Ed Marsh');
    const one = await vote(first.key);
    expect(one.status).toBe(200);
    const owner = (await d.api('GET', '/api/v1/workspace')).body.ownerUserId;
    expect(one.body).toEqual({ itemKey: first.key, userId: owner, voted: true, changed: true, votes: 1 });
    const again = await vote(first.key);
    expect(again.body).toMatchObject({ voted: true, changed: false, votes: 1 });
    expect((await vote(first.key, 'usr_ed')).body).toMatchObject({ userId: 'usr_ed', changed: true, votes: 2 });

    expect(await itemVotes(first.key)).toMatchObject({ votes: 2, momentum7d: 2 });
    expect((await d.api('GET', '/api/v1/roadmap-items/my-votes')).body).toEqual({ userId: owner, itemKeys: [first.key] });
    expect((await d.api('GET', '/api/v1/roadmap-items/my-votes?asUserId=usr_ed')).body).toEqual({ userId: 'usr_ed', itemKeys: [first.key] });

    const log = (await d.api('GET', '/api/v1/activity?kind=roadmap.voted')).body.activities;
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ kind: 'roadmap.voted', actorLabel: 'Ed Marsh', entityType: 'roadmap_item', entityId: first.key });
  });

  it('taking a vote back removes it from every figure; taking back a vote never cast changes nothing', async () => {
    const d = shared.desk;
    await vote(second.key);
    const back = await d.api('DELETE', `/api/v1/roadmap-items/${second.key}/vote`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ itemKey: second.key, voted: false, changed: true, votes: 0 });
    expect(await itemVotes(second.key)).toMatchObject({ votes: 0, momentum7d: 0 });
    expect((await d.api('GET', '/api/v1/activity?kind=roadmap.vote_removed')).body.activities).toHaveLength(1);
    const none = await d.api('DELETE', `/api/v1/roadmap-items/${second.key}/vote`);
    expect(none.body).toMatchObject({ voted: false, changed: false, votes: 0 });
    expect((await d.api('GET', '/api/v1/activity?kind=roadmap.vote_removed')).body.activities).toHaveLength(1);
  });

  it('refuses an unknown item (404), a non-member (422 naming asUserId) and a missing token (401), changing nothing', async () => {
    const d = shared.desk;
    const unknown = await expectRejectedUnchanged(d, { method: 'POST', path: '/api/v1/roadmap-items/no-such-item/vote' }, { status: 404, error: 'not_found' });
    expect(unknown.body.message).toContain('no-such-item');
    await expectRejectedUnchanged(d, { method: 'DELETE', path: '/api/v1/roadmap-items/no-such-item/vote' }, { status: 404, error: 'not_found' });
    await expectRejectedUnchanged(d, { method: 'POST', path: `/api/v1/roadmap-items/${first.key}/vote`, body: { asUserId: 'usr_nobody' } }, { status: 422, field: 'asUserId' });
    await expectRejectedUnchanged(d, { method: 'DELETE', path: `/api/v1/roadmap-items/${first.key}/vote?asUserId=usr_nobody` }, { status: 422, field: 'asUserId' });
    await expectRejectedUnchanged(d, { method: 'POST', path: `/api/v1/roadmap-items/${first.key}/vote`, body: { asUserId: 5 } }, { status: 422, field: 'asUserId' });
    await expectRejectedUnchanged(d, { method: 'POST', path: `/api/v1/roadmap-items/${first.key}/vote`, token: null }, { status: 401, error: 'unauthorized' });
    await expectRejectedUnchanged(d, { method: 'GET', path: '/api/v1/roadmap-items/my-votes?asUserId=usr_nobody' }, { status: 422, field: 'asUserId' });
  });
});

describe('GET /api/v1/roadmap-votes (public): trend, momentum and the top lists on the desk clock', () => {
  it('counts each vote on its UTC day over 14 days; momentum is the trailing 7 days; not cached', async () => {
    const d = shared.desk;
    for (let i = 0; i < 4; i++) await addMember(d, `usr_${i}`, `Member ${i}`);
    d.clock.set('2026-03-01T23:30:00Z');
    await vote(first.key, 'usr_0'); // 2026-03-01: 10 days before the end
    d.clock.set('2026-03-06T00:10:00Z');
    await vote(first.key, 'usr_1'); // 2026-03-06: 5 days before
    d.clock.set('2026-03-11T09:00:00Z');
    await vote(first.key, 'usr_2'); // today
    await vote(second.key, 'usr_2');
    // 23:59 UTC is still the same day; a minute later the window moves.
    d.clock.set('2026-03-11T23:59:00Z');
    const res = await d.api('GET', '/api/v1/roadmap-votes', undefined, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.body).toMatchObject({ today: '2026-03-11', trendDays: 14, totalVotes: 4, generatedAt: '2026-03-11T23:59:00.000Z' });
    expect(res.body.items).toHaveLength(ROADMAP_ITEMS.length);
    const a = res.body.items[0];
    expect(a.key).toBe(first.key);
    expect(a.trend[0].date).toBe('2026-02-26');
    expect(a.trend.map((p: { votes: number }) => p.votes)).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(a).toMatchObject({ votes: 3, momentum7d: 2 });

    d.clock.advance(HOUR_MS); // 2026-03-12 00:59 UTC
    const next = await itemVotes(first.key);
    expect(next.trend.at(-1)).toEqual({ date: '2026-03-12', votes: 0 });
    expect(next.momentum7d).toBe(2); // 03-06 and 03-11 are still within the last 7 days
    d.clock.advance(5 * DAY_MS); // 2026-03-17: 03-11 is 6 days back, 03-06 has left the 7
    expect(await itemVotes(first.key)).toMatchObject({ votes: 3, momentum7d: 1 });
    d.clock.advance(30 * DAY_MS); // old votes stay counted, out of every window
    const late = await itemVotes(first.key);
    expect(late).toMatchObject({ votes: 3, momentum7d: 0 });
    expect(late.trend.every((p: { votes: number }) => p.votes === 0)).toBe(true);
  });

  it('mostRequested by votes and mostTrending by momentum without the requested ones', async () => {
    const d = shared.desk;
    for (let i = 0; i < 6; i++) await addMember(d, `usr_${i}`, `Member ${i}`);
    const keys = ROADMAP_ITEMS.map((i) => i.key);
    // Long ago: items 0-4 get 6, 5, 4, 3, 3 votes.
    d.clock.set('2026-01-01T12:00:00Z');
    for (const [n, count] of [6, 5, 4, 3, 3].entries()) for (let u = 0; u < count; u++) await vote(keys[n], `usr_${u}`);
    // This week: item 1 gets one more (6, tied with item 0, ahead by momentum); items 6 and 7 get recent votes.
    d.clock.set('2026-02-10T12:00:00Z');
    await vote(keys[1], 'usr_5');
    await vote(keys[6], 'usr_0');
    for (let u = 0; u < 2; u++) await vote(keys[7], `usr_${u}`);
    const body = await votes();
    expect(body.mostRequested.map((r: { key: string }) => r.key)).toEqual([keys[1], keys[0], keys[2], keys[3], keys[4]]);
    expect(body.mostRequested[0]).toEqual({ key: keys[1], title: ROADMAP_ITEMS[1].title, votes: 6, momentum7d: 1 });
    expect(body.mostTrending).toEqual([
      { key: keys[7], title: ROADMAP_ITEMS[7].title, votes: 2, momentum7d: 2 },
      { key: keys[6], title: ROADMAP_ITEMS[6].title, votes: 1, momentum7d: 1 },
    ]);
  });
});

describe('the /roadmap page', () => {
  it('lists the phases and items with their vote counts and the most requested, not cached', async () => {
    await vote(first.key);
    const res = await fetch(`${shared.desk.url}/roadmap`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<title>Roadmap · Desk</title>');
    expect(html).toContain(`<link rel="canonical" href="${shared.desk.url}/roadmap">`);
    for (const phase of ['phase-now', 'phase-next', 'phase-later']) expect(html).toContain(`id="${phase}"`);
    expect(html).toContain(`id="item-${first.key}"`);
    expect(html).toContain('1 vote · 1 this week');
    expect(html).toContain(`Most requested: <a href="#item-${first.key}">${first.title}</a> (1)`);
  });
});
