import { describe, expect, it } from 'vitest';
import { formatCadence, formatNextPoll, formatQuiet, formatResumesIn, formatShortDateTime, parseKeywords, statusBadge } from './format';

const gating = (over: Partial<Parameters<typeof formatNextPoll>[0] & object> = {}) => ({
  intervalMinutes: 30,
  isOverride: false,
  nextPollAt: '2026-03-10T12:30:00.000Z',
  isDueNow: false,
  minutesUntilDue: 12,
  ...over,
});

describe('formatCadence', () => {
  it('names an own interval as an override and otherwise the workspace cadence', () => {
    expect(formatCadence(gating({ isOverride: true, intervalMinutes: 10 }))).toBe('every 10 min (override)');
    expect(formatCadence(gating({ isOverride: true, intervalMinutes: 90 }))).toBe('every 1 h 30 min (override)');
    expect(formatCadence(gating())).toBe('workspace cadence');
  });

  it('says when a source is never polled', () => {
    expect(formatCadence(null)).toBe('not polled');
  });
});

describe('formatNextPoll', () => {
  it('counts down to the next poll', () => {
    expect(formatNextPoll(gating(), false)).toBe('in 12 min');
    expect(formatNextPoll(gating({ minutesUntilDue: 1 }), false)).toBe('in 1 min');
    expect(formatNextPoll(gating({ minutesUntilDue: 200 }), false)).toBe('in 3 h 20 min');
  });

  it('is due now when due, and at zero minutes left', () => {
    expect(formatNextPoll(gating({ isDueNow: true, minutesUntilDue: 0 }), false)).toBe('due now');
    expect(formatNextPoll(gating({ minutesUntilDue: 0 }), false)).toBe('due now');
  });

  it('while paused: waits for the end of a scheduled pause, or says paused without one', () => {
    expect(formatNextPoll(gating({ minutesUntilDue: 120 }), true)).toBe('after the pause, in 2 h');
    expect(formatNextPoll(gating({ minutesUntilDue: 0 }), true)).toBe('when the pause ends');
    expect(formatNextPoll(gating({ nextPollAt: null, minutesUntilDue: null }), true)).toBe('paused');
  });

  it('shows a dash for sources that are never polled', () => {
    expect(formatNextPoll(null, false)).toBe('—');
  });
});

describe('formatResumesIn', () => {
  it('uses minutes under an hour, hours and minutes under 3 h, whole hours beyond', () => {
    expect(formatResumesIn(0)).toBe('resumes now');
    expect(formatResumesIn(0.5)).toBe('resumes in 30 min');
    expect(formatResumesIn(2.5)).toBe('resumes in 2 h 30 min');
    expect(formatResumesIn(5.4)).toBe('resumes in 5 h');
    expect(formatResumesIn(49.6)).toBe('resumes in 2 d 2 h');
  });
});

describe('formatQuiet', () => {
  it('shows the quiet days against the floor, singular when one', () => {
    expect(formatQuiet(20, 14)).toBe('quiet for 20 days (floor 14 days)');
    expect(formatQuiet(1, 1)).toBe('quiet for 1 day (floor 1 day)');
  });
});

describe('parseKeywords', () => {
  it('splits on commas and newlines, trims, drops blanks and folds duplicates ignoring case', () => {
    expect(parseKeywords(' pricing, Launch ,,\nlaunch, hiring ')).toEqual(['pricing', 'Launch', 'hiring']);
    expect(parseKeywords('')).toEqual([]);
    expect(parseKeywords(' , ')).toEqual([]);
  });

  it('keeps spaces inside a keyword', () => {
    expect(parseKeywords('price rise, new plan')).toEqual(['price rise', 'new plan']);
  });
});

describe('statusBadge', () => {
  const at = (iso: string) => `<${iso}>`;
  it('shows a pause before the poll status', () => {
    expect(statusBadge({ status: 'connected', paused: true, pausedUntilAt: '2026-03-12T09:00:00Z' }, at)).toEqual({ text: 'Paused until <2026-03-12T09:00:00Z>', tone: 'warning' });
    expect(statusBadge({ status: 'error', paused: true, pausedUntilAt: null }, at)).toEqual({ text: 'Paused', tone: 'warning' });
  });

  it('maps each status to a tone', () => {
    expect(statusBadge({ status: 'connected', paused: false, pausedUntilAt: null }, at).tone).toBe('success');
    expect(statusBadge({ status: 'error', paused: false, pausedUntilAt: null }, at).tone).toBe('danger');
    expect(statusBadge({ status: 'pending', paused: false, pausedUntilAt: null }, at)).toEqual({ text: 'Pending', tone: 'info' });
  });
});

describe('formatShortDateTime', () => {
  it('leaves the year out for this year and shows it otherwise', () => {
    const now = new Date(2026, 2, 10, 9, 0);
    expect(formatShortDateTime(new Date(2026, 2, 12, 13, 5).toISOString(), now)).not.toMatch(/2026/);
    expect(formatShortDateTime(new Date(2027, 0, 2, 8, 0).toISOString(), now)).toMatch(/2027/);
    expect(formatShortDateTime('not a date', now)).toBe('not a date');
  });
});
