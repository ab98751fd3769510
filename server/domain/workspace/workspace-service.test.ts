import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/connection';
import { useTestDatabase } from '../../testing/database';
import { DAY_MS, ManualClock } from '../../core/clock';
import { DeskError } from '../../core/errors';
import {
  FOCUS_TAG_INPUT_PATTERN,
  checkPlan,
  checkScheduledPause,
  checkSpikeAction,
  checkTimezone,
  effectiveLoopInterval,
  normaliseFocusTags,
} from './rules';
import { parseIso } from '../../core/workspace-time';
import { WorkspaceService } from './workspace-service';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let clock: ManualClock;
let service: WorkspaceService;

beforeEach(() => {
  clock = t.clock;
  service = new WorkspaceService(t.db, clock);
});

const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DeskError);
    return (err as DeskError).details?.[0]?.field;
  }
  throw new Error('expected a validation error');
};

describe('WorkspaceService', () => {
  it('ensureCreated creates once; concurrent and later calls return the same workspace untouched', async () => {
    const { ingestToken: token } = await t.db.selectFrom('workspace').select('ingestToken').executeTakeFirstOrThrow();
    const again = await Promise.all([
      service.ensureCreated({ plan: 'team', timezone: 'Asia/Tokyo', ingestToken: 'x'.repeat(32) }),
      service.ensureCreated({ plan: 'pro', timezone: 'Europe/Berlin' }),
    ]);
    expect(again).toEqual([
      { created: false, ingestToken: token },
      { created: false, ingestToken: token },
    ]);
    expect(await t.db.selectFrom('workspace').select('id').execute()).toHaveLength(1);
    expect((await service.profile()).plan).toBe('free');
  });

  it('ensureCreated stores the seed timezone in its canonical spelling', async () => {
    const other = await openDatabase(path.join(t.dir, 'other.sqlite'));
    try {
      const fresh = new WorkspaceService(other.db, clock);
      await fresh.ensureCreated({ plan: 'pro', timezone: 'europe/berlin' });
      expect((await fresh.profile()).timezone).toBe('Europe/Berlin');
    } finally {
      await other.close();
    }
  });

  it('concurrent identical focus changes start one focus shift and log one change', async () => {
    await Promise.all([service.setFocusTags(['launch']), service.setFocusTags(['launch']), service.setFocusTags(['launch'])]);
    expect((await service.focusHistory()).shifts).toHaveLength(1);
    const rows = await t.db.selectFrom('activity').selectAll().where('kind', '=', 'workspace.focus_tags').execute();
    expect(rows).toHaveLength(1);
  });

  it('resumeIfPauseExpired only acts once the pause has run out', async () => {
    await service.setPauseUntil(new Date(clock.now().getTime() + DAY_MS).toISOString());
    expect(await service.resumeIfPauseExpired()).toBe(false);
    clock.advance(DAY_MS);
    expect(await service.resumeIfPauseExpired()).toBe(true);
    expect(await service.resumeIfPauseExpired()).toBe(false);
    expect(await service.profile()).toMatchObject({ loopState: 'on', pauseUntilAt: null });
  });

  it('a new pause set while the expired one is being resumed is kept', async () => {
    await service.setPauseUntil(new Date(clock.now().getTime() + DAY_MS).toISOString());
    clock.advance(DAY_MS + 1);
    const next = new Date(clock.now().getTime() + 2 * DAY_MS).toISOString();
    await Promise.all([service.setPauseUntil(next), service.resumeIfPauseExpired()]);
    expect(await service.profile()).toMatchObject({ loopState: 'paused', pauseUntilAt: next });
  });

  it('resumeIfPauseExpired leaves a manually set state alone when there is no schedule', async () => {
    await service.setLoopState('off');
    clock.advance(30 * DAY_MS);
    expect(await service.resumeIfPauseExpired()).toBe(false);
    expect((await service.profile()).loopState).toBe('off');
  });
});

describe('workspace rules', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');

  it('effectiveLoopInterval applies the plan floor', () => {
    expect(effectiveLoopInterval(5, 'free')).toBe(15);
    expect(effectiveLoopInterval(15, 'free')).toBe(15);
    expect(effectiveLoopInterval(16, 'free')).toBe(16);
    expect(effectiveLoopInterval(1, 'pro')).toBe(5);
    expect(effectiveLoopInterval(1, 'team')).toBe(1);
  });

  it('checkScheduledPause: future, at most 14 days ahead', () => {
    expect(checkScheduledPause('at', new Date(now.getTime() + 14 * DAY_MS).toISOString(), now)).toBe('2026-03-24T12:00:00.000Z');
    expect(checkScheduledPause('at', new Date(now.getTime() + 1).toISOString(), now)).toBe('2026-03-10T12:00:00.001Z');
    expect(fieldOf(() => checkScheduledPause('at', new Date(now.getTime() + 14 * DAY_MS + 1).toISOString(), now))).toBe('at');
    expect(fieldOf(() => checkScheduledPause('at', now.toISOString(), now))).toBe('at');
  });

  it('parseIso accepts dates and offset times only', () => {
    expect(parseIso('x', '2026-03-10').toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(parseIso('x', '2026-03-10T12:00+0200').toISOString()).toBe('2026-03-10T10:00:00.000Z');
    expect(parseIso('x', '2026-03-10T12:00:00.123456789Z').toISOString()).toBe('2026-03-10T12:00:00.123Z');
    for (const bad of ['2026-03-10T12:00', '10/03/2026', 'now', '2026-3-1', '']) expect(fieldOf(() => parseIso('x', bad)), bad).toBe('x');
  });

  it('parseIso refuses impossible dates instead of rolling them over', () => {
    for (const bad of ['2026-02-30', '2026-02-29T10:00:00Z', '2026-04-31T00:00:00Z', '2026-03-10T25:00:00Z', '2026-03-10T12:60:00Z', '2026-03-10T12:00:00+99:99', '2026-03-10T12:00:00+24:00']) {
      expect(fieldOf(() => parseIso('x', bad)), bad).toBe('x');
    }
    expect(parseIso('x', '2028-02-29T10:00:00Z').toISOString()).toBe('2028-02-29T10:00:00.000Z');
  });

  it('parseIso reads a date alone as the start of that day in the given timezone; times keep their offset', () => {
    expect(parseIso('x', '2026-03-12', 'America/New_York').toISOString()).toBe('2026-03-12T04:00:00.000Z');
    expect(parseIso('x', '2026-01-12', 'America/New_York').toISOString()).toBe('2026-01-12T05:00:00.000Z');
    expect(parseIso('x', '2026-03-12', 'Asia/Tokyo').toISOString()).toBe('2026-03-11T15:00:00.000Z');
    expect(parseIso('x', '2026-03-12T09:00:00Z', 'Asia/Tokyo').toISOString()).toBe('2026-03-12T09:00:00.000Z');
    expect(checkScheduledPause('at', '2026-03-12', now, 'Asia/Tokyo')).toBe('2026-03-11T15:00:00.000Z');
  });

  it('normaliseFocusTags trims, folds duplicates, keeps order and names the bad tag', () => {
    expect(normaliseFocusTags([' b ', 'a', 'b'])).toEqual(['b', 'a']);
    expect(normaliseFocusTags([])).toEqual([]);
    expect(fieldOf(() => normaliseFocusTags(['a', 'b', 'c', 'd']))).toBe('tags');
    expect(fieldOf(() => normaliseFocusTags(['ok', 'Not OK']))).toBe('tags[1]');
  });

  it('the documented tag pattern accepts exactly what normaliseFocusTags accepts once trimmed', () => {
    for (const tag of ['q3-launch', ' billing ', 'ops2', '\tx\n']) {
      expect(FOCUS_TAG_INPUT_PATTERN.test(tag), tag).toBe(true);
      expect(normaliseFocusTags([tag])).toEqual([tag.trim()]);
    }
    for (const tag of ['Bad Tag', 'a--b', '-lead', 'trail-', 'under_score', '', ' ']) {
      expect(FOCUS_TAG_INPUT_PATTERN.test(tag), tag).toBe(false);
      expect(fieldOf(() => normaliseFocusTags([tag]))).toBe('tags[0]');
    }
  });

  it('enum settings outside their lists are refused in the domain too (callers other than the API)', () => {
    expect(fieldOf(() => checkPlan('enterprise' as never))).toBe('plan');
    expect(fieldOf(() => checkSpikeAction('tagCostSpikeAction', 'stop' as never))).toBe('tagCostSpikeAction');
    expect(() => checkSpikeAction('tagCostSpikeAction', null)).not.toThrow();
  });

  it('checkTimezone returns the canonical name', () => {
    expect(checkTimezone('europe/berlin')).toBe('Europe/Berlin');
    expect(checkTimezone('UTC')).toBe('UTC');
    expect(checkTimezone('utc')).toBe('UTC');
    expect(fieldOf(() => checkTimezone('Mars/Base'))).toBe('timezone');
  });

  it('checkTimezone never swaps a valid name for another zone (ICU resolves links to its own names)', () => {
    for (const zone of ['Europe/Kyiv', 'Asia/Kolkata', 'EST', 'US/Eastern', 'Etc/UTC', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires']) {
      expect(checkTimezone(zone), zone).toBe(zone);
    }
  });
});
