import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { digestDue, gateRecipient, parseSimulatedDate, type GatingPrefs } from './rules';

const NY = 'America/New_York';
const at = (iso: string) => DateTime.fromISO(iso, { zone: NY });
const prefs = (over: Partial<GatingPrefs> = {}): GatingPrefs => ({ digestQuietWeekends: false, digestQuietHoursStart: null, digestQuietHoursEnd: null, digestPersonalSections: ['approvals'], ...over });

describe('recipient gating in the workspace timezone', () => {
  it('quiet weekends follow the local calendar, not UTC, across the March DST change', () => {
    const p = prefs({ digestQuietWeekends: true });
    // Friday 23:59 in New York is already Saturday in UTC: still a weekday.
    expect(gateRecipient(p, at('2026-03-07T04:59:00Z')).outcome).toBe('would_send');
    expect(gateRecipient(p, at('2026-03-07T13:00:00Z'))).toMatchObject({ outcome: 'muted', reason: 'quiet_weekend' }); // Sat 08:00 EST
    expect(gateRecipient(p, at('2026-03-08T12:00:00Z'))).toMatchObject({ outcome: 'muted', reason: 'quiet_weekend' }); // Sun 08:00 EDT (DST day)
    // Sunday 23:30 EDT is Monday 03:30 UTC: still the weekend here.
    expect(gateRecipient(p, at('2026-03-09T03:30:00Z')).reason).toBe('quiet_weekend');
    expect(gateRecipient(p, at('2026-03-09T12:00:00Z'))).toMatchObject({ outcome: 'would_send', reason: 'ready', detail: 'Would send at Mon 9 Mar 2026 08:00' });
    // Off: weekends send.
    expect(gateRecipient(prefs(), at('2026-03-08T12:00:00Z')).outcome).toBe('would_send');
  });

  it('quiet hours wrap past midnight and use local hours on both DST changes', () => {
    const p = prefs({ digestQuietHoursStart: 22, digestQuietHoursEnd: 7 });
    // 8 March: 06:30 EDT muted, 07:00 EDT sends (a fixed UTC-5 offset would say 05:30/06:00).
    expect(gateRecipient(p, at('2026-03-08T10:30:00Z'))).toMatchObject({ outcome: 'muted', reason: 'quiet_hours', detail: 'Muted: Sun 8 Mar 2026 06:30 is within quiet hours 22:00-07:00' });
    expect(gateRecipient(p, at('2026-03-08T11:00:00Z')).outcome).toBe('would_send');
    // 1 November: 01:30 happens twice, both quiet; 06:30 EST is 11:30 UTC (a fixed UTC-4 offset would say 07:30).
    expect(gateRecipient(p, at('2026-11-01T05:30:00Z')).reason).toBe('quiet_hours');
    expect(gateRecipient(p, at('2026-11-01T06:30:00Z')).reason).toBe('quiet_hours');
    expect(gateRecipient(p, at('2026-11-01T11:30:00Z')).reason).toBe('quiet_hours');
    expect(gateRecipient(p, at('2026-11-01T12:00:00Z')).outcome).toBe('would_send');
    expect(gateRecipient(p, at('2026-11-02T02:59:00Z')).outcome).toBe('would_send'); // 21:59 EST
    expect(gateRecipient(p, at('2026-11-02T03:00:00Z')).reason).toBe('quiet_hours'); // 22:00 EST
    // A daytime window does not wrap.
    const day = prefs({ digestQuietHoursStart: 9, digestQuietHoursEnd: 17 });
    expect(gateRecipient(day, at('2026-03-10T12:59:00Z')).outcome).toBe('would_send'); // 08:59 EDT
    expect(gateRecipient(day, at('2026-03-10T13:00:00Z')).reason).toBe('quiet_hours');
    expect(gateRecipient(day, at('2026-03-10T21:00:00Z')).outcome).toBe('would_send'); // 17:00 EDT
  });

  it('a weekend mute wins over quiet hours; no section chosen mutes', () => {
    expect(gateRecipient(prefs({ digestQuietWeekends: true, digestQuietHoursStart: 0, digestQuietHoursEnd: 23 }), at('2026-03-08T12:00:00Z')).reason).toBe('quiet_weekend');
    expect(gateRecipient(prefs({ digestPersonalSections: [] }), at('2026-03-09T12:00:00Z'))).toMatchObject({ outcome: 'muted', reason: 'no_sections' });
  });
});

describe('when the production digest is due', () => {
  it('from 08:00 workspace time, once per workspace day, across the DST change', () => {
    expect(digestDue(new Date('2026-03-06T12:59:00Z'), NY, null, null).due).toBe(false); // 07:59 EST
    expect(digestDue(new Date('2026-03-06T13:00:00Z'), NY, null, null)).toEqual({ due: true, day: '2026-03-06', gateOpensAt: null });
    expect(digestDue(new Date('2026-03-09T11:59:00Z'), NY, '2026-03-06T13:00:00.000Z', '2026-03-06').due).toBe(false); // 07:59 EDT
    expect(digestDue(new Date('2026-03-09T12:00:00Z'), NY, '2026-03-06T13:00:00.000Z', '2026-03-06').due).toBe(true);
    expect(digestDue(new Date('2026-03-09T23:00:00Z'), NY, '2026-03-09T12:00:00.000Z', '2026-03-09').due).toBe(false); // same day
  });

  it('catches up during the working day, but not in the evening: a desk started at 18:00 waits for the next morning', () => {
    expect(digestDue(new Date('2026-03-10T21:59:00Z'), NY, null, null).due).toBe(true); // 17:59 EDT
    expect(digestDue(new Date('2026-03-10T22:00:00Z'), NY, null, null).due).toBe(false); // 18:00 EDT
    expect(digestDue(new Date('2026-03-11T01:00:00Z'), NY, null, null).due).toBe(false); // 21:00 EDT
  });

  it('waits for the 22-hour gate after a late run', () => {
    // Monday's digest went out late (16:00 EDT); Tuesday 08:00 EDT is only 16 hours later.
    const last = '2026-03-09T20:00:00.000Z';
    expect(digestDue(new Date('2026-03-10T12:00:00Z'), NY, last, '2026-03-09')).toEqual({ due: false, day: '2026-03-10', gateOpensAt: '2026-03-10T18:00:00.000Z' });
    expect(digestDue(new Date('2026-03-10T17:59:59Z'), NY, last, '2026-03-09').due).toBe(false);
    expect(digestDue(new Date('2026-03-10T18:00:00Z'), NY, last, '2026-03-09').due).toBe(true);
  });
});

describe('simulatedDate', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  it('takes an ISO time or a date (08:00 workspace time), within 60 days either way', () => {
    expect(parseSimulatedDate(undefined, now, NY)).toBe(now);
    expect(parseSimulatedDate('2026-03-08', now, NY).toISOString()).toBe('2026-03-08T12:00:00.000Z');
    expect(parseSimulatedDate('2026-03-07', now, NY).toISOString()).toBe('2026-03-07T13:00:00.000Z');
    expect(parseSimulatedDate('2026-05-09T12:00:00Z', now, NY).toISOString()).toBe('2026-05-09T12:00:00.000Z'); // exactly 60 days
    expect(parseSimulatedDate('2026-01-09T12:00:00Z', now, NY).toISOString()).toBe('2026-01-09T12:00:00.000Z');
  });
  it('rejects anything else naming simulatedDate', () => {
    for (const bad of ['2026-05-09T12:00:01Z', '2026-01-09T11:59:59Z', 'tomorrow', '2026-02-30', '2026-13-01T00:00:00Z', '']) {
      expect(invalidFieldOf(() => parseSimulatedDate(bad, now, NY)), bad).toBe('simulatedDate');
    }
  });
});
