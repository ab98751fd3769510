import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { useTestDesk } from '../../testing/use-test-desk';
import { RELEASES } from '../../domain/changelog/releases';

/** API tests of the public changelog: GET /changelog, /changelog/{rev}, latest, cadence, peak-week, trend. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

/** Public endpoints: called without any authorization header. */
const get = async (p: string) => {
  const res = await desk.api('GET', `/api/v1${p}`, undefined, null);
  return res;
};
const ok = async (p: string) => {
  const res = await get(p);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=1800');
  return res.body;
};
const revsOf = (releases: { rev: string }[]) => releases.map((r) => r.rev);
const revs = (...ns: number[]) => ns.map((n) => `rev ${n}`);
const at = (iso: string) => desk.clock.set(iso);

describe('the release data', () => {
  it('holds the 48 revs of the release table, in order, each with a title and 2-5 highlights', () => {
    // the release table the onboarding templates' launchRev values also follow
    const table =
      '01-06 01-14 01-21 01-30 02-01 02-06 02-12 02-26 03-04 03-12 03-15 03-20 04-03 04-10 04-15 04-21 04-30 05-09 05-15 05-22 05-28 06-11 06-20 06-25 ' +
      '06-28 07-04 07-11 07-13 07-15 07-18 07-23 07-26 07-29 08-07 08-12 08-19 08-24 09-07 09-14 09-21 09-30 10-07 10-21 10-27 10-30 11-06 11-20 11-23';
    expect(RELEASES.map((r) => [r.n, r.date])).toEqual(table.split(' ').map((d, i) => [i + 1, `2026-${d}`]));
    for (let i = 1; i < RELEASES.length; i++) expect(RELEASES[i].date > RELEASES[i - 1].date, `rev ${i + 1}`).toBe(true);
    for (const r of RELEASES) {
      expect(r.title.length).toBeGreaterThan(3);
      expect(r.highlights.length).toBeGreaterThanOrEqual(2);
      expect(r.highlights.length).toBeLessThanOrEqual(5);
      for (const x of r.highlights) expect(x.label.length * x.description.length).toBeGreaterThan(0);
    }
  });
});

describe('GET /changelog', () => {
  it('answers the newest 20 by default in the wrapper, with each release url', async () => {
    at('2026-12-01T08:00:00.000Z');
    const body = await ok('/changelog');
    expect(body).toMatchObject({ generatedAt: '2026-12-01T08:00:00.000Z', total: 48, filtered: 48, returned: 20, sinceRev: null });
    expect(revsOf(body.releases)).toEqual(revs(...Array.from({ length: 20 }, (_, i) => 48 - i)));
    expect(body.releases[0]).toEqual({
      rev: 'rev 48',
      date: '2026-11-23',
      title: RELEASES[47].title,
      highlights: RELEASES[47].highlights,
      url: `${desk.url}/changelog/48`,
    });
  });

  it('takes limit 1-100 and refuses anything else with a 422 naming limit', async () => {
    expect(revsOf((await ok('/changelog?limit=1')).releases)).toEqual(revs(48));
    const all = await ok('/changelog?limit=100');
    expect(all.returned).toBe(48);
    expect(revsOf(all.releases).at(-1)).toBe('rev 1');
    for (const bad of ['0', '101', '-1', '2.5', 'ten']) {
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/changelog?limit=${bad}`, token: null }, { field: 'limit' });
    }
  });

  it('sinceRev keeps only newer releases and composes with limit', async () => {
    const since = await ok('/changelog?sinceRev=40');
    expect(since).toMatchObject({ total: 48, filtered: 8, returned: 8, sinceRev: 40 });
    expect(revsOf(since.releases)).toEqual(revs(48, 47, 46, 45, 44, 43, 42, 41));
    const both = await ok('/changelog?sinceRev=40&limit=3');
    expect(both).toMatchObject({ filtered: 8, returned: 3, sinceRev: 40 });
    expect(revsOf(both.releases)).toEqual(revs(48, 47, 46));
    expect(await ok('/changelog?sinceRev=48')).toMatchObject({ filtered: 0, returned: 0, releases: [] });
    expect(await ok('/changelog?sinceRev=0')).toMatchObject({ filtered: 48, returned: 20, sinceRev: 0 });
    for (const bad of ['-1', '1.5', 'rev%2012', '1000001']) {
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/changelog?sinceRev=${bad}`, token: null }, { field: 'sinceRev' });
    }
  });
});

describe('GET /changelog/{rev} and /changelog/latest', () => {
  it('answers one release with its neighbors, by number or by label', async () => {
    const r12 = await ok('/changelog/12');
    expect(r12).toMatchObject({ rev: 'rev 12', date: '2026-03-20', title: 'Onboarding templates', url: `${desk.url}/changelog/12` });
    expect(r12.neighbors.newer).toMatchObject({ rev: 'rev 13', date: '2026-04-03' });
    expect(r12.neighbors.older).toMatchObject({ rev: 'rev 11', date: '2026-03-15' });
    expect((await ok('/changelog/rev%2012')).rev).toBe('rev 12');
    expect((await ok('/changelog/REV-12')).rev).toBe('rev 12');
    const first = await ok('/changelog/1');
    expect(first.neighbors).toMatchObject({ older: null, newer: { rev: 'rev 2' } });
  });

  it('latest is rev 48 in the detail shape, newer always null', async () => {
    const latest = await ok('/changelog/latest');
    expect(latest).toMatchObject({ rev: 'rev 48', date: '2026-11-23', neighbors: { newer: null, older: { rev: 'rev 47' } } });
    expect(latest).toEqual(await ok('/changelog/48'));
  });

  it('a number with no release is a 404 in the one error shape; a non-number a 422 naming rev', async () => {
    for (const missing of ['49', '0', '9999999']) {
      const res = await get(`/changelog/${missing}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: expect.stringMatching(/^No release rev \d+ in the changelog\.$/) });
    }
    for (const bad of ['abc', 'rev', '12a', '-3']) {
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/changelog/${bad}`, token: null }, { field: 'rev' });
    }
  });
});

describe('GET /changelog/cadence', () => {
  it('buckets every UTC day of the window, empty days with 0, active days with their trajectory', async () => {
    at('2026-07-30T23:30:00.000Z');
    const body = await ok('/changelog/cadence?days=7');
    expect(body).toMatchObject({ days: 7, windowStart: '2026-07-24', windowEnd: '2026-07-30', totalRevsInWindow: 2, activeDays: 2, avgRevsPerActiveDay: 1 });
    expect(body.perDay.map((d: { date: string; revCount: number }) => [d.date, d.revCount])).toEqual([
      ['2026-07-24', 0],
      ['2026-07-25', 0],
      ['2026-07-26', 1],
      ['2026-07-27', 0],
      ['2026-07-28', 0],
      ['2026-07-29', 1],
      ['2026-07-30', 0],
    ]);
    expect(body.perDay[0]).toEqual({ date: '2026-07-24', revCount: 0, sampleRevs: [], historicalTrajectory: null });
    // rev 32 on 07-26: 32 releases so far; 06-27..07-26 holds revs 25-32; 04-28..07-26 holds revs 17-32
    expect(body.perDay[2]).toEqual({ date: '2026-07-26', revCount: 1, sampleRevs: ['rev 32'], historicalTrajectory: { cumulativeRevs: 32, revsLast30Days: 8, revsLast90Days: 16 } });
    expect(body.peakDay).toEqual({ date: '2026-07-26', revCount: 1, revs: ['rev 32'] });
    expect(body.peakWeek).toEqual({ start: '2026-07-26', end: '2026-07-30', revCount: 2 });
    expect(body.peakWeekRevs).toEqual(revs(32, 33));
    expect(body.weekly).toEqual([{ weekStart: '2026-07-24', weekEnd: '2026-07-30', days: 7, revCount: 2, revs: revs(32, 33) }]);
  });

  it('defaults to 90 days and finds the peak week, top weeks and weekly buckets counted back from today', async () => {
    at('2026-07-30T10:00:00.000Z');
    const body = await ok('/changelog/cadence');
    expect(body).toMatchObject({ days: 90, windowStart: '2026-05-02', windowEnd: '2026-07-30', totalRevsInWindow: 16, activeDays: 16 });
    expect(body.perDay).toHaveLength(90);
    // 07-11..07-17 (revs 27, 28, 29) is the earliest 7-day span with 3 releases
    expect(body.peakWeek).toEqual({ start: '2026-07-11', end: '2026-07-17', revCount: 3 });
    expect(body.peakWeekRevs).toEqual(revs(27, 28, 29));
    expect(body.weekly).toHaveLength(13);
    expect(body.weekly.at(-1)).toMatchObject({ weekStart: '2026-07-24', weekEnd: '2026-07-30', days: 7, revCount: 2 });
    expect(body.weekly[0]).toMatchObject({ weekStart: '2026-05-02', weekEnd: '2026-05-07', days: 6, revCount: 0 });
    expect(body.weekly.reduce((s: number, w: { revCount: number }) => s + w.revCount, 0)).toBe(16);
    // weeks: 07-10..07-16 has 3; 05-22..05-28, 06-19..06-25, 07-17..07-23 and 07-24..07-30 have 2 each: earliest first
    expect(body.topWeeks.map((w: { weekStart: string; revCount: number }) => [w.weekStart, w.revCount])).toEqual([
      ['2026-07-10', 3],
      ['2026-05-22', 2],
      ['2026-06-19', 2],
    ]);
  });

  it('takes days 1 and 365, refuses 0, 366 and non-integers with a 422 naming days', async () => {
    at('2026-03-20T12:00:00.000Z');
    const one = await ok('/changelog/cadence?days=1');
    expect(one.perDay).toEqual([{ date: '2026-03-20', revCount: 1, sampleRevs: ['rev 12'], historicalTrajectory: { cumulativeRevs: 12, revsLast30Days: 5, revsLast90Days: 12 } }]);
    expect(one.weekly).toEqual([{ weekStart: '2026-03-20', weekEnd: '2026-03-20', days: 1, revCount: 1, revs: ['rev 12'] }]);
    const year = await ok('/changelog/cadence?days=365');
    expect(year.perDay).toHaveLength(365);
    expect(year.totalRevsInWindow).toBe(12);
    for (const bad of ['0', '366', '7.5', 'week']) {
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/changelog/cadence?days=${bad}`, token: null }, { field: 'days' });
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/changelog/peak-week?days=${bad}`, token: null }, { field: 'days' });
    }
  });

  it('a window without releases has zero rollups and null peaks', async () => {
    at('2027-06-01T00:00:00.000Z');
    const body = await ok('/changelog/cadence?days=30');
    expect(body).toMatchObject({ totalRevsInWindow: 0, activeDays: 0, avgRevsPerActiveDay: 0, peakDay: null, peakWeek: null, peakWeekRevs: [], topWeeks: [] });
    expect(body.perDay.every((d: { revCount: number }) => d.revCount === 0)).toBe(true);
  });
});

describe('GET /changelog/peak-week', () => {
  it('answers the cadence peak without the per-day array', async () => {
    at('2026-07-30T10:00:00.000Z');
    const body = await ok('/changelog/peak-week');
    expect(body).toEqual({
      generatedAt: '2026-07-30T10:00:00.000Z',
      days: 90,
      windowStart: '2026-05-02',
      windowEnd: '2026-07-30',
      peakWeek: { start: '2026-07-11', end: '2026-07-17', revCount: 3 },
      peakWeekRevs: revs(27, 28, 29),
    });
    expect((await ok('/changelog/peak-week?days=3')).peakWeek).toEqual({ start: '2026-07-29', end: '2026-07-30', revCount: 1 });
  });
});

describe('GET /changelog/trend', () => {
  const trendAt = async (iso: string) => {
    at(iso);
    return ok('/changelog/trend');
  };

  it('Steady: the last two weeks match the two before', async () => {
    const body = await trendAt('2026-07-30T12:00:00.000Z');
    expect(body).toMatchObject({ verb: 'Steady', latest: 4, prior: 4, delta: 0 });
    expect(body.buckets.map((b: { weekStart: string; revCount: number }) => [b.weekStart, b.revCount])).toEqual([
      ['2026-07-03', 1],
      ['2026-07-10', 3],
      ['2026-07-17', 2],
      ['2026-07-24', 2],
    ]);
  });

  it('Accelerating at delta +2 and Cooling at delta -2', async () => {
    // 06-01..06-28: 0, 1 (rev 22), 1 (rev 23), 2 (revs 24, 25)
    expect(await trendAt('2026-06-28T12:00:00.000Z')).toMatchObject({ verb: 'Accelerating', latest: 3, prior: 1, delta: 2 });
    // 07-14..08-10: 2 (revs 29, 30), 2 (31, 32), 1 (33), 1 (34)
    expect(await trendAt('2026-08-10T12:00:00.000Z')).toMatchObject({ verb: 'Cooling', latest: 2, prior: 4, delta: -2 });
    // one short of the thresholds stays Steady: 07-24..08-20 is 2, 0, 2 (34, 35), 1 (36)
    expect(await trendAt('2026-08-20T12:00:00.000Z')).toMatchObject({ verb: 'Steady', latest: 3, prior: 2, delta: 1 });
  });

  it('— when the four weeks hold no release', async () => {
    const body = await trendAt('2025-12-01T12:00:00.000Z');
    expect(body).toMatchObject({ verb: '—', latest: 0, prior: 0, delta: 0 });
    expect(body.buckets).toHaveLength(4);
  });
});
