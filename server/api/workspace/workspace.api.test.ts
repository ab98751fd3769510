import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../core/clock';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { setFocusTags, setPauseUntil, setPlan, setTimezone } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of the spec's "Workspace configuration" table and the operator settings. */

// One desk for the file, reset to its fresh state (every table, the clock) before each test.
const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

async function activityRows() {
  return desk.services.db.selectFrom('activity').selectAll().orderBy('createdAt').orderBy('id').execute();
}

/** The profile through the typed client: the answer is typed from the OpenAPI document. */
async function profile() {
  const { data, response } = await desk.client.GET('/api/v1/workspace');
  expect(response.status).toBe(200);
  return data!;
}

/** A request that must be refused with 422 naming `field`, leaving every table as it was. */
async function expectRejected(method: string, path: string, body: unknown, field: string) {
  return expectRejectedUnchanged(desk, { method, path, body }, { field, error: 'validation_failed' });
}

/** A request that must succeed and add exactly one activity row of `kind`, by the owner unless `actor` says otherwise. */
async function expectChange(method: string, path: string, body: unknown, kind: string) {
  const before = await activityRows();
  const res = await desk.api(method, path, body);
  expect(res.status, `${method} ${path} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBe(200);
  const after = await activityRows();
  expect(after).toHaveLength(before.length + 1);
  const row = after[after.length - 1];
  expect(row.kind).toBe(kind);
  expect(row.entityType).toBe('workspace');
  const p = await profile();
  expect(row.entityId).toBe(p.id);
  expect(row.actorUserId).toBe(p.ownerUserId);
  return res;
}

/** A request that succeeds without changing anything: no activity row. */
async function expectNoop(method: string, path: string, body: unknown) {
  const before = await activityRows();
  const profileBefore = await profile();
  const res = await desk.api(method, path, body);
  expect(res.status).toBe(200);
  expect(await activityRows()).toEqual(before);
  expect(await profile()).toEqual(profileBefore);
  return res;
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /workspace', () => {
  it('returns the seeded profile with the effective loop interval, and no secret', async () => {
    const p = await profile();
    expect(p).toMatchObject({
      plan: 'free',
      timezone: 'UTC',
      loopState: 'on',
      pauseUntilAt: null,
      loopIntervalMinutes: 30,
      effectiveLoopIntervalMinutes: 30,
      planFloorMinutes: 15,
      approvalPolicy: { watchHours: 24, overdueHours: 72 },
      focusTags: [],
      staleTaskAutoArchiveDays: null,
      staleMemoryAutoArchiveDays: null,
      taskCostSpikeAction: null,
      sourceCostSpikeAction: null,
      sourceChronicSpikeAction: null,
      sourceChronicThresholdDays: 3,
      tagCostSpikeAction: null,
      dailyCostCapUsdCents: 50,
      digestEmail: null,
      createdAt: '2026-03-10T12:00:00.000Z',
    });
    expect(p.id).toMatch(/^wsp_/);
    expect(p.ownerUserId).toMatch(/^usr_/);
    expect(JSON.stringify(p)).not.toContain(desk.token);
    expect(p).not.toHaveProperty('ingestToken');
    expect(p).not.toHaveProperty('relayUrl');
  });

  it('has the owner as the first and only member', async () => {
    const users = await desk.services.db.selectFrom('users').selectAll().execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ id: (await profile()).ownerUserId, role: 'owner' });
  });

  // The row is kept between requests: each of these reads would be stale if a write did not drop it.
  it('shows each change at once: after a PATCH, after a write outside the workspace service, after a reset', async () => {
    expect((await profile()).loopIntervalMinutes).toBe(30);
    expect((await desk.api('PATCH', '/api/v1/workspace/loop-interval', { loopIntervalMinutes: 45 })).status).toBe(200);
    expect((await profile()).loopIntervalMinutes).toBe(45);
    await setPlan(desk, 'team');
    expect(await profile()).toMatchObject({ plan: 'team', planFloorMinutes: 1 });
    await desk.services.db.updateTable('workspace').set({ name: 'Renamed elsewhere' }).execute();
    expect((await profile()).name).toBe('Renamed elsewhere');
    await shared.reset();
    expect(await profile()).toMatchObject({ name: 'My desk', plan: 'free', loopIntervalMinutes: 30 });
  });
});

describe('PATCH /workspace/loop', () => {
  it('sets each state, one activity row per change, none for a repeat', async () => {
    const res = await expectChange('PATCH', '/api/v1/workspace/loop', { loopState: 'paused' }, 'workspace.loop_state');
    expect(res.body.loopState).toBe('paused');
    await expectChange('PATCH', '/api/v1/workspace/loop', { loopState: 'off' }, 'workspace.loop_state');
    expect((await profile()).loopState).toBe('off');
    await expectNoop('PATCH', '/api/v1/workspace/loop', { loopState: 'off' });
    await expectChange('PATCH', '/api/v1/workspace/loop', { loopState: 'on' }, 'workspace.loop_state');
    expect((await profile()).loopState).toBe('on');
  });

  it('rejects an unknown state, a missing field and a wrong type', async () => {
    await expectRejected('PATCH', '/api/v1/workspace/loop', { loopState: 'sleeping' }, 'loopState');
    await expectRejected('PATCH', '/api/v1/workspace/loop', {}, 'loopState');
    await expectRejected('PATCH', '/api/v1/workspace/loop', { loopState: null }, 'loopState');
    await expectRejected('PATCH', '/api/v1/workspace/loop', { loopState: 1 }, 'loopState');
  });

  it('a manual state clears a scheduled pause', async () => {
    await setPauseUntil(desk, iso(desk.clock.now().getTime() + HOUR_MS));
    await expectChange('PATCH', '/api/v1/workspace/loop', { loopState: 'paused' }, 'workspace.loop_state');
    const p = await profile();
    expect(p.loopState).toBe('paused');
    expect(p.pauseUntilAt).toBeNull();
  });
});

describe('PATCH /workspace/pause-until', () => {
  const path = '/api/v1/workspace/pause-until';

  it('13 days ahead pauses the loop until then; exactly 14 days is the last accepted time', async () => {
    const at = iso(desk.clock.now().getTime() + 13 * DAY_MS);
    const res = await expectChange('PATCH', path, { pauseUntilAt: at }, 'workspace.pause_scheduled');
    expect(res.body).toMatchObject({ loopState: 'paused', pauseUntilAt: at });
    const edge = iso(desk.clock.now().getTime() + 14 * DAY_MS);
    await expectChange('PATCH', path, { pauseUntilAt: edge }, 'workspace.pause_scheduled');
    expect((await profile()).pauseUntilAt).toBe(edge);
  });

  it('normalises an offset time to UTC', async () => {
    const res = await expectChange('PATCH', path, { pauseUntilAt: '2026-03-11T09:00:00+02:00' }, 'workspace.pause_scheduled');
    expect(res.body.pauseUntilAt).toBe('2026-03-11T07:00:00.000Z');
  });

  it('rejects 15 days, just over 14 days, the past, now, and garbage', async () => {
    const now = desk.clock.now().getTime();
    await expectRejected('PATCH', path, { pauseUntilAt: iso(now + 15 * DAY_MS) }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: iso(now + 14 * DAY_MS + 1000) }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: iso(now - MINUTE_MS) }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: iso(now) }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: 'next tuesday' }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: '2026-03-11T25:00:00Z' }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: '2026-03-11T09:00:00' }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: '' }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: 1773230400000 }, 'pauseUntilAt');
    await expectRejected('PATCH', path, {}, 'pauseUntilAt');
  });

  it('a date alone means the start of that day in the workspace timezone; an impossible date is rejected', async () => {
    await setTimezone(desk, 'America/New_York');
    // the clock is 2026-03-10T12:00Z; New York is on daylight time (UTC-4) from March 8
    const res = await expectChange('PATCH', path, { pauseUntilAt: '2026-03-12' }, 'workspace.pause_scheduled');
    expect(res.body).toMatchObject({ loopState: 'paused', pauseUntilAt: '2026-03-12T04:00:00.000Z' });
    await expectRejected('PATCH', path, { pauseUntilAt: '2026-03-25' }, 'pauseUntilAt'); // 14 days and 16 hours ahead
    await expectRejected('PATCH', path, { pauseUntilAt: '2026-03-10' }, 'pauseUntilAt'); // today began in the past
    await expectRejected('PATCH', path, { pauseUntilAt: '2026-02-30T12:00:00Z' }, 'pauseUntilAt');
    await expectRejected('PATCH', path, { pauseUntilAt: '2026-03-11T24:30:00Z' }, 'pauseUntilAt');
  });

  it('null clears the schedule and turns the loop back on; null without a schedule changes nothing', async () => {
    await expectNoop('PATCH', path, { pauseUntilAt: null });
    await setPauseUntil(desk, iso(desk.clock.now().getTime() + 2 * DAY_MS));
    const res = await expectChange('PATCH', path, { pauseUntilAt: null }, 'workspace.pause_cleared');
    expect(res.body).toMatchObject({ loopState: 'on', pauseUntilAt: null });
  });

  it('the desk resumes by itself once the scheduled time has passed, logged by the system', async () => {
    const until = desk.clock.now().getTime() + 3 * HOUR_MS;
    await setPauseUntil(desk, iso(until));

    desk.clock.advance(3 * HOUR_MS - MINUTE_MS);
    await desk.services.scheduler.tick();
    expect(await profile()).toMatchObject({ loopState: 'paused', pauseUntilAt: iso(until) });

    desk.clock.advance(2 * MINUTE_MS);
    await desk.services.scheduler.tick();
    expect(await profile()).toMatchObject({ loopState: 'on', pauseUntilAt: null });
    const rows = (await activityRows()).filter((r) => r.kind === 'workspace.pause_expired');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorUserId: null, actorLabel: 'system', entityType: 'workspace' });

    // nothing more to resume: a later tick writes nothing
    desk.clock.advance(HOUR_MS);
    const count = (await activityRows()).length;
    await desk.services.scheduler.tick();
    expect(await activityRows()).toHaveLength(count);

    const listed = await desk.api('GET', '/api/v1/activity?kind=workspace.pause_expired');
    expect(listed.body.activities).toHaveLength(1);
  });
});

describe('PATCH /workspace/loop-interval', () => {
  const path = '/api/v1/workspace/loop-interval';

  it('accepts 1 and 1440 and returns the requested and the effective value', async () => {
    let res = await expectChange('PATCH', path, { loopIntervalMinutes: 1 }, 'workspace.loop_interval');
    expect(res.body).toEqual({ loopIntervalMinutes: 1, effectiveLoopIntervalMinutes: 15, planFloorMinutes: 15, plan: 'free' });
    res = await expectChange('PATCH', path, { loopIntervalMinutes: 1440 }, 'workspace.loop_interval');
    expect(res.body).toEqual({ loopIntervalMinutes: 1440, effectiveLoopIntervalMinutes: 1440, planFloorMinutes: 15, plan: 'free' });
  });

  it('rejects 0, 1441, 1.5, a negative, a string and null', async () => {
    for (const bad of [0, 1441, 1.5, -5, 'ten', null]) {
      await expectRejected('PATCH', path, { loopIntervalMinutes: bad }, 'loopIntervalMinutes');
    }
  });

  it('applies the plan floor: free 5 -> 15, team -> 5, pro 1 -> 5', async () => {
    const res = await desk.api('PATCH', path, { loopIntervalMinutes: 5 });
    expect(res.body).toMatchObject({ loopIntervalMinutes: 5, effectiveLoopIntervalMinutes: 15 });
    expect(await profile()).toMatchObject({ loopIntervalMinutes: 5, effectiveLoopIntervalMinutes: 15, planFloorMinutes: 15 });

    await expectChange('PATCH', '/api/v1/workspace/plan', { plan: 'team' }, 'workspace.plan');
    expect(await profile()).toMatchObject({ plan: 'team', loopIntervalMinutes: 5, effectiveLoopIntervalMinutes: 5, planFloorMinutes: 1 });

    await setPlan(desk, 'pro');
    const pro = await desk.api('PATCH', path, { loopIntervalMinutes: 1 });
    expect(pro.body).toEqual({ loopIntervalMinutes: 1, effectiveLoopIntervalMinutes: 5, planFloorMinutes: 5, plan: 'pro' });
  });
});

describe('approval policy', () => {
  const path = '/api/v1/workspace/approval-policy';

  it('defaults to watch 24, overdue 72', async () => {
    const { data, response } = await desk.client.GET('/api/v1/workspace/approval-policy');
    expect(response.status).toBe(200);
    expect(data).toEqual({ watchHours: 24, overdueHours: 72 });
  });

  it('accepts the edges and the presets', async () => {
    for (const policy of [
      { watchHours: 168, overdueHours: 169 },
      { watchHours: 1, overdueHours: 2 },
      { watchHours: 167, overdueHours: 720 },
      { watchHours: 4, overdueHours: 12 },
      { watchHours: 48, overdueHours: 120 },
    ]) {
      const res = await expectChange('PATCH', path, policy, 'workspace.approval_policy');
      expect(res.body).toEqual(policy);
      expect((await desk.api('GET', path)).body).toEqual(policy);
    }
  });

  it('rejects watch == overdue, overdue < watch and every out-of-range value', async () => {
    await expectRejected('PATCH', path, { watchHours: 24, overdueHours: 24 }, 'overdueHours');
    await expectRejected('PATCH', path, { watchHours: 48, overdueHours: 24 }, 'overdueHours');
    await expectRejected('PATCH', path, { watchHours: 0, overdueHours: 72 }, 'watchHours');
    await expectRejected('PATCH', path, { watchHours: 169, overdueHours: 300 }, 'watchHours');
    await expectRejected('PATCH', path, { watchHours: 1, overdueHours: 1 }, 'overdueHours');
    await expectRejected('PATCH', path, { watchHours: 24, overdueHours: 721 }, 'overdueHours');
    await expectRejected('PATCH', path, { watchHours: 2.5, overdueHours: 72 }, 'watchHours');
    await expectRejected('PATCH', path, { watchHours: 24 }, 'overdueHours');
  });
});

describe('focus tags', () => {
  const path = '/api/v1/workspace/focus-tags';

  it('3 tags are accepted and read back; 4 are rejected', async () => {
    expect((await desk.api('GET', path)).body).toEqual({ tags: [] });
    const res = await expectChange('PUT', path, { tags: ['q3-launch', 'billing', 'ops2'] }, 'workspace.focus_tags');
    expect(res.body).toEqual({ tags: ['q3-launch', 'billing', 'ops2'] });
    expect((await desk.api('GET', path)).body).toEqual({ tags: ['q3-launch', 'billing', 'ops2'] });
    await expectRejected('PUT', path, { tags: ['a', 'b', 'c', 'd'] }, 'tags');
  });

  it('rejects tags that are not lowercase-hyphen', async () => {
    // the documented 40 characters apply to the tag as sent, surrounding spaces included
    for (const bad of ['Bad Tag', 'UPPER', 'a--b', '-lead', 'trail-', 'under_score', '', 'x'.repeat(41), ` ${'x'.repeat(40)}`, '  ']) {
      await expectRejected('PUT', path, { tags: ['ok', bad] }, 'tags[1]');
    }
    await expectRejected('PUT', path, { tags: [7] }, 'tags[0]');
    await expectRejected('PUT', path, { tags: ['ok', { a: 1 }] }, 'tags[1]');
    await expectRejected('PUT', path, {}, 'tags');
  });

  it('trims and folds duplicates; the same set again is no change; [] clears', async () => {
    const res = await expectChange('PUT', path, { tags: [' billing ', 'billing', 'x'.repeat(40)] }, 'workspace.focus_tags');
    expect(res.body.tags).toEqual(['billing', 'x'.repeat(40)]);
    await expectNoop('PUT', path, { tags: ['x'.repeat(40), 'billing'] });
    await expectChange('PUT', path, { tags: [] }, 'workspace.focus_tags');
    expect((await profile()).focusTags).toEqual([]);
  });
});

describe('GET /workspace/focus-history', () => {
  const setTags = (tags: string[]) => setFocusTags(desk, tags);

  it('lists every shift newest first, each with its duration; the current one is flagged', async () => {
    const t0 = desk.clock.now().toISOString();
    await setTags(['billing']);
    desk.clock.advance(2 * HOUR_MS);
    const t1 = desk.clock.now().toISOString();
    await setTags(['q3-launch', 'ops']);
    desk.clock.advance(30 * MINUTE_MS);

    const res = await desk.api('GET', '/api/v1/workspace/focus-history');
    expect(res.status).toBe(200);
    expect(res.body.sinceDays).toBe(90);
    expect(res.body.shifts).toHaveLength(2);
    expect(res.body.shifts[0]).toMatchObject({ tags: ['q3-launch', 'ops'], startedAt: t1, endedAt: null, durationMinutes: 30, current: true });
    expect(res.body.shifts[1]).toMatchObject({ tags: ['billing'], startedAt: t0, endedAt: t1, durationMinutes: 120, current: false });
  });

  it('respects sinceDays and limit, and keeps the end of a shift whose successor is in the window', async () => {
    await setTags(['a']);
    desk.clock.advance(2 * HOUR_MS);
    await setTags(['b']);
    desk.clock.advance(2 * DAY_MS);
    await setTags(['c']);

    let res = await desk.api('GET', '/api/v1/workspace/focus-history?sinceDays=1');
    expect(res.body.sinceDays).toBe(1);
    expect(res.body.shifts.map((s: { tags: string[] }) => s.tags)).toEqual([['c']]);
    expect(res.body.shifts[0].current).toBe(true);

    res = await desk.api('GET', '/api/v1/workspace/focus-history?sinceDays=3&limit=2');
    expect(res.body.shifts.map((s: { tags: string[] }) => s.tags)).toEqual([['c'], ['b']]);
    expect(res.body.shifts[1]).toMatchObject({ durationMinutes: 2 * 24 * 60, current: false });

    res = await desk.api('GET', '/api/v1/workspace/focus-history?limit=1');
    expect(res.body.shifts.map((s: { tags: string[] }) => s.tags)).toEqual([['c']]);

    // shifts that started before the default 90-day window are left out
    desk.clock.advance(89 * DAY_MS);
    res = await desk.api('GET', '/api/v1/workspace/focus-history');
    expect(res.body.shifts.map((s: { tags: string[] }) => s.tags)).toEqual([['c']]);
    expect(res.body.shifts[0].durationMinutes).toBe(89 * 24 * 60);
  });

  it('accepts sinceDays 1-365 and limit 1-200, rejects outside', async () => {
    for (const q of ['sinceDays=1', 'sinceDays=365', 'limit=1', 'limit=200']) {
      expect((await desk.api('GET', `/api/v1/workspace/focus-history?${q}`)).status).toBe(200);
    }
    for (const [q, field] of [
      ['sinceDays=0', 'sinceDays'],
      ['sinceDays=366', 'sinceDays'],
      ['sinceDays=1.5', 'sinceDays'],
      ['sinceDays=abc', 'sinceDays'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=-1', 'limit'],
    ]) {
      const res = await desk.api('GET', `/api/v1/workspace/focus-history?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe('GET /workspace/focus-history pages', () => {
  const url = '/api/v1/workspace/focus-history';

  it('serves 30 shifts a page by default and the rest after nextCursor, durations intact across the page break', async () => {
    for (let i = 0; i < 31; i += 1) {
      expect((await desk.api('PUT', '/api/v1/workspace/focus-tags', { tags: [`t${i}`] })).status).toBe(200);
      desk.clock.advance((i + 1) * MINUTE_MS);
    }
    const first = await desk.api('GET', url);
    expect(first.status).toBe(200);
    expect(first.body.shifts).toHaveLength(30);
    expect(typeof first.body.nextCursor).toBe('string');
    expect(first.body.shifts[0]).toMatchObject({ tags: ['t30'], current: true, durationMinutes: 31 });

    const second = await desk.api('GET', `${url}?cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ sinceDays: 90, nextCursor: null });
    // t0 held 1 minute and ended where t1, the last row of the first page, started
    expect(second.body.shifts).toEqual([expect.objectContaining({ tags: ['t0'], endedAt: first.body.shifts[29].startedAt, durationMinutes: 1, current: false })]);
  });

  it('a cursor it did not serve is a 422 naming cursor', async () => {
    for (const cursor of ['nonsense', Buffer.from('[1]').toString('base64url')]) {
      const res = await desk.api('GET', `${url}?cursor=${cursor}`);
      expect(res.status).toBe(422);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(['cursor']);
    }
  });
});

describe('workspace events', () => {
  const queued = () => desk.services.db.selectFrom('outboxEvents').select(['event', 'payload']).orderBy('id').execute();

  it('a loop change queues workspace.loop_state_changed with the change; a rejected one queues nothing', async () => {
    await expectRejected('PATCH', '/api/v1/workspace/loop', { loopState: 'sleeping' }, 'loopState');
    await expectRejected('PATCH', '/api/v1/workspace/pause-until', { pauseUntilAt: iso(desk.clock.now().getTime() + 15 * DAY_MS) }, 'pauseUntilAt');
    expect(await queued()).toEqual([]);
    await expectChange('PATCH', '/api/v1/workspace/loop', { loopState: 'paused' }, 'workspace.loop_state');
    const rows = await queued();
    expect(rows.map((r) => r.event)).toEqual(['workspace.loop_state_changed', 'loop.state_changed']);
    expect(JSON.parse(rows[0].payload)).toMatchObject({ event: 'workspace.loop_state_changed', data: { loopState: 'paused', pauseUntilAt: null } });
    expect(JSON.parse(rows[1].payload)).toMatchObject({ event: 'loop.state_changed', data: { loopState: 'paused', previousLoopState: 'on', pauseUntilAt: null } });
  });

  it('GET /events lists the workspace events with examples', async () => {
    const res = await desk.api('GET', '/api/v1/events');
    const names = res.body.events.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['workspace.loop_state_changed', 'workspace.cost_cap_changed']));
  });
});

describe('archive thresholds', () => {
  it('auto-archive: 7 and 90 accepted, 6, 91 and 7.5 rejected, null turns it off', async () => {
    const path = '/api/v1/workspace/auto-archive-config';
    expect((await desk.api('GET', path)).body).toEqual({ staleTaskAutoArchiveDays: null });
    for (const days of [7, 90]) {
      const res = await expectChange('PUT', path, { staleTaskAutoArchiveDays: days }, 'workspace.auto_archive');
      expect(res.body).toEqual({ staleTaskAutoArchiveDays: days });
      expect((await desk.api('GET', path)).body).toEqual({ staleTaskAutoArchiveDays: days });
    }
    for (const bad of [6, 91, 7.5, 'thirty']) await expectRejected('PUT', path, { staleTaskAutoArchiveDays: bad }, 'staleTaskAutoArchiveDays');
    await expectRejected('PUT', path, {}, 'staleTaskAutoArchiveDays');
    await expectChange('PUT', path, { staleTaskAutoArchiveDays: null }, 'workspace.auto_archive');
    expect((await desk.api('GET', path)).body).toEqual({ staleTaskAutoArchiveDays: null });
  });

  it('memory archive: 30 and 365 accepted, 29 and 366 rejected, null turns it off', async () => {
    const path = '/api/v1/workspace/memory-archive-config';
    expect((await desk.api('GET', path)).body).toEqual({ staleMemoryAutoArchiveDays: null });
    for (const days of [30, 365]) {
      const res = await expectChange('PUT', path, { staleMemoryAutoArchiveDays: days }, 'workspace.memory_archive');
      expect(res.body).toEqual({ staleMemoryAutoArchiveDays: days });
    }
    for (const bad of [29, 366, 100.5]) await expectRejected('PUT', path, { staleMemoryAutoArchiveDays: bad }, 'staleMemoryAutoArchiveDays');
    await expectChange('PUT', path, { staleMemoryAutoArchiveDays: null }, 'workspace.memory_archive');
    expect((await desk.api('GET', path)).body).toEqual({ staleMemoryAutoArchiveDays: null });
  });
});

describe('spike configs', () => {
  const configs = [
    ['cost-spike-config', 'taskCostSpikeAction', 'workspace.cost_spike_config'],
    ['source-cost-spike-config', 'sourceCostSpikeAction', 'workspace.source_cost_spike_config'],
    ['tag-cost-spike-config', 'tagCostSpikeAction', 'workspace.tag_cost_spike_config'],
  ] as const;

  for (const [route, field, kind] of configs) {
    it(`${route}: none, pause and null are accepted, anything else rejected`, async () => {
      const path = `/api/v1/workspace/${route}`;
      expect((await desk.api('GET', path)).body).toEqual({ [field]: null });
      for (const action of ['pause', 'none', null]) {
        const res = await expectChange('PUT', path, { [field]: action }, kind);
        expect(res.body).toEqual({ [field]: action });
        expect((await desk.api('GET', path)).body).toEqual({ [field]: action });
        expect((await profile())[field]).toBe(action);
      }
      await expectRejected('PUT', path, { [field]: 'bogus' }, field);
      await expectRejected('PUT', path, { [field]: 'PAUSE' }, field);
      await expectRejected('PUT', path, {}, field);
    });
  }

  it('source-chronic-spike-config: thresholdDays 2-14, default 3, omitted keeps the previous value', async () => {
    const path = '/api/v1/workspace/source-chronic-spike-config';
    const kind = 'workspace.source_chronic_spike_config';
    expect((await desk.api('GET', path)).body).toEqual({ sourceChronicSpikeAction: null, thresholdDays: 3 });

    let res = await expectChange('PUT', path, { sourceChronicSpikeAction: 'pause' }, kind);
    expect(res.body).toEqual({ sourceChronicSpikeAction: 'pause', thresholdDays: 3 });
    res = await expectChange('PUT', path, { sourceChronicSpikeAction: 'pause', thresholdDays: 2 }, kind);
    expect(res.body).toEqual({ sourceChronicSpikeAction: 'pause', thresholdDays: 2 });
    res = await expectChange('PUT', path, { sourceChronicSpikeAction: 'none', thresholdDays: 14 }, kind);
    expect(res.body).toEqual({ sourceChronicSpikeAction: 'none', thresholdDays: 14 });
    res = await expectChange('PUT', path, { sourceChronicSpikeAction: null }, kind);
    expect(res.body).toEqual({ sourceChronicSpikeAction: null, thresholdDays: 14 });
    expect((await desk.api('GET', path)).body).toEqual({ sourceChronicSpikeAction: null, thresholdDays: 14 });
    expect(await profile()).toMatchObject({ sourceChronicSpikeAction: null, sourceChronicThresholdDays: 14 });

    for (const bad of [1, 15, 2.5, null]) {
      await expectRejected('PUT', path, { sourceChronicSpikeAction: 'pause', thresholdDays: bad }, 'thresholdDays');
    }
    await expectRejected('PUT', path, { sourceChronicSpikeAction: 'bogus', thresholdDays: 3 }, 'sourceChronicSpikeAction');
    await expectRejected('PUT', path, { thresholdDays: 3 }, 'sourceChronicSpikeAction');
  });
});

describe('operator settings', () => {
  it('daily cost cap: 0 ok, null removes, -1 and 1.5 rejected', async () => {
    const path = '/api/v1/workspace/cost-cap';
    expect((await profile()).dailyCostCapUsdCents).toBe(50);
    let res = await expectChange('PATCH', path, { dailyCostCapUsdCents: 0 }, 'workspace.cost_cap');
    expect(res.body).toEqual({ dailyCostCapUsdCents: 0 });
    res = await expectChange('PATCH', path, { dailyCostCapUsdCents: 12345 }, 'workspace.cost_cap');
    expect(res.body).toEqual({ dailyCostCapUsdCents: 12345 });
    for (const bad of [-1, 1.5, 'lots', 100_000_001]) await expectRejected('PATCH', path, { dailyCostCapUsdCents: bad }, 'dailyCostCapUsdCents');
    await expectRejected('PATCH', path, {}, 'dailyCostCapUsdCents');
    res = await expectChange('PATCH', path, { dailyCostCapUsdCents: null }, 'workspace.cost_cap');
    expect(res.body).toEqual({ dailyCostCapUsdCents: null });
    expect((await profile()).dailyCostCapUsdCents).toBeNull();
  });

  it('timezone: an IANA name is accepted, anything else rejected', async () => {
    const path = '/api/v1/workspace/timezone';
    for (const bad of ['Mars/Base', '', 'GMT+25', 'x'.repeat(5000)]) await expectRejected('PATCH', path, { timezone: bad }, 'timezone');
    await expectRejected('PATCH', path, { timezone: null }, 'timezone');
    const res = await expectChange('PATCH', path, { timezone: 'Europe/Berlin' }, 'workspace.timezone');
    expect(res.body.timezone).toBe('Europe/Berlin');
    expect((await profile()).timezone).toBe('Europe/Berlin');
    // names are matched case-insensitively and stored in their canonical spelling
    await expectNoop('PATCH', path, { timezone: 'europe/berlin' });
    const utc = await expectChange('PATCH', path, { timezone: 'utc' }, 'workspace.timezone');
    expect(utc.body.timezone).toBe('UTC');
    // a valid name is kept as written, never replaced by the zone ICU links it to
    for (const zone of ['Europe/Kyiv', 'Asia/Kolkata', 'EST']) {
      const res = await expectChange('PATCH', path, { timezone: zone }, 'workspace.timezone');
      expect(res.body.timezone).toBe(zone);
    }
  });

  it('digestEmail: an address is accepted (trimmed), nonsense rejected, null removes', async () => {
    const path = '/api/v1/workspace/digest-email';
    for (const bad of ['nope', 'a@b', 'two words@example.com', '', 'ops@example.com\u0000', 'ops@example.com\ud800', `${'a'.repeat(250)}@example.com`]) {
      await expectRejected('PATCH', path, { digestEmail: bad }, 'digestEmail');
    }
    const res = await expectChange('PATCH', path, { digestEmail: ' ops@example.com ' }, 'workspace.digest_email');
    expect(res.body.digestEmail).toBe('ops@example.com');
    await expectNoop('PATCH', path, { digestEmail: 'ops@example.com' });
    await expectChange('PATCH', path, { digestEmail: null }, 'workspace.digest_email');
    expect((await profile()).digestEmail).toBeNull();
  });

  it('plan: free, pro and team; the floor follows, the cost cap stays', async () => {
    const path = '/api/v1/workspace/plan';
    await expectRejected('PATCH', path, { plan: 'gold' }, 'plan');
    await expectRejected('PATCH', path, { plan: 'Team' }, 'plan');
    let res = await expectChange('PATCH', path, { plan: 'pro' }, 'workspace.plan');
    expect(res.body).toMatchObject({ plan: 'pro', planFloorMinutes: 5, dailyCostCapUsdCents: 50 });
    res = await expectChange('PATCH', path, { plan: 'team' }, 'workspace.plan');
    expect(res.body).toMatchObject({ plan: 'team', planFloorMinutes: 1, dailyCostCapUsdCents: 50 });
    await expectNoop('PATCH', path, { plan: 'team' });
  });

  it('a successful change moves updatedAt to now', async () => {
    desk.clock.advance(HOUR_MS);
    const res = await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' });
    expect(res.body.updatedAt).toBe(desk.clock.now().toISOString());
    expect(res.body.createdAt).toBe('2026-03-10T12:00:00.000Z');
  });
});
