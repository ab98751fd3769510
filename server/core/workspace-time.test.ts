import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock';
import { addDays, calendarDaysSince, dayOf, dayWindow, daysBefore, endOfDay, lastDays, parseDay, parseIso, startOfDay, today } from './workspace-time';
import { invalidFieldOf } from '../testing/errors';

const hours = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 3_600_000;

describe('workspace time', () => {
  it('a spring-forward day in Berlin lasts 23 hours and a fall-back day in New York 25', () => {
    expect(hours(startOfDay('2026-03-29', 'Europe/Berlin'), endOfDay('2026-03-29', 'Europe/Berlin'))).toBe(23);
    expect(hours(startOfDay('2026-11-01', 'America/New_York'), endOfDay('2026-11-01', 'America/New_York'))).toBe(25);
    expect(hours(startOfDay('2026-03-10', 'Europe/Berlin'), endOfDay('2026-03-10', 'Europe/Berlin'))).toBe(24);
  });

  it('starts a day at local midnight, whatever the offset that day', () => {
    expect(startOfDay('2026-03-28', 'Europe/Berlin').toISOString()).toBe('2026-03-27T23:00:00.000Z');
    expect(startOfDay('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('puts an instant on its workspace day, not its UTC day', () => {
    expect(dayOf(new Date('2026-03-11T02:00:00Z'), 'America/New_York')).toBe('2026-03-10');
    expect(dayOf(new Date('2026-03-11T02:00:00Z'), 'Asia/Tokyo')).toBe('2026-03-11');
    expect(today(new ManualClock('2026-11-01T04:30:00Z'), 'America/New_York')).toBe('2026-11-01');
    expect(today(new ManualClock('2026-11-01T03:30:00Z'), 'America/New_York')).toBe('2026-10-31');
  });

  it('an N-day window across a DST change covers whole local days', () => {
    const w = dayWindow(new Date('2026-03-30T10:00:00Z'), 'Europe/Berlin', 3);
    expect(w.days).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(w.from.toISOString()).toBe('2026-03-27T23:00:00.000Z');
    expect(w.to.toISOString()).toBe('2026-03-30T22:00:00.000Z');
    expect(hours(w.from, w.to)).toBe(71);
    expect(lastDays(new Date('2026-03-01T12:00:00Z'), 'UTC', 2)).toEqual(['2026-02-28', '2026-03-01']);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('parses ISO times with an offset, and a date alone as the start of that workspace day', () => {
    expect(parseIso('at', '2026-03-10T09:00:00+01:00').toISOString()).toBe('2026-03-10T08:00:00.000Z');
    expect(parseIso('at', '2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(invalidFieldOf(() => parseIso('at', '2026-02-30'))).toBe('at');
    expect(invalidFieldOf(() => parseIso('at', '2026-03-10T09:00:00'))).toBe('at');
    expect(parseDay('day', '2026-02-28')).toBe('2026-02-28');
    expect(invalidFieldOf(() => parseDay('day', '2026-02-29'))).toBe('day');
  });

  it('counts staleness in calendar days, as the cutoff does, across a DST change', () => {
    const now = new Date('2026-04-02T10:00:00.000Z');
    const cutoff = daysBefore(now, 'Europe/Berlin', 7);
    // Seven calendar days back crosses the spring-forward night: 167 hours, not 168.
    expect(hours(cutoff, now)).toBe(167);
    const justBefore = new Date(cutoff.getTime() - 60_000);
    expect(calendarDaysSince(justBefore, now, 'Europe/Berlin')).toBe(7);
    expect(Math.floor(hours(justBefore, now) / 24)).toBe(6); // what a 24-hour count said
    expect(calendarDaysSince(new Date(cutoff.getTime() + 60_000), now, 'Europe/Berlin')).toBe(6);
  });
});
