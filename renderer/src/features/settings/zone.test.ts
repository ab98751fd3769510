import { describe, expect, it } from 'vitest';
import { shiftDuration } from './components/FocusSection';
import { workspaceTimeNote } from './zone';

describe('workspaceTimeNote', () => {
  it('names the workspace wall-clock time when it differs from the viewer', () => {
    expect(workspaceTimeNote('2026-03-12T00:00:00.000Z', 'Asia/Tokyo', 'UTC')).toBe('Mar 12, 9:00 AM in Asia/Tokyo');
    expect(workspaceTimeNote('2026-03-12T15:00:00.000Z', 'Europe/Berlin', 'America/New_York')).toBe('Mar 12, 4:00 PM in Europe/Berlin');
  });

  it('adds nothing when both clocks read the same, or the input is unusable', () => {
    expect(workspaceTimeNote('2026-03-12T15:00:00.000Z', 'Europe/Berlin', 'Europe/Berlin')).toBeNull();
    expect(workspaceTimeNote('2026-03-12T15:00:00.000Z', 'Europe/Berlin', 'Europe/Paris')).toBeNull();
    expect(workspaceTimeNote('not a time', 'Europe/Berlin', 'UTC')).toBeNull();
    expect(workspaceTimeNote('2026-03-12T15:00:00.000Z', 'Mars/Base', 'UTC')).toBeNull();
  });
});

describe('shiftDuration', () => {
  it('never says "0 min"', () => {
    expect(shiftDuration({ durationMinutes: 0, current: true })).toBe('for less than a minute so far');
    expect(shiftDuration({ durationMinutes: 0, current: false })).toBe('held less than a minute');
  });

  it('says how long a past shift held and how long the current one has held so far', () => {
    expect(shiftDuration({ durationMinutes: 125, current: false })).toBe('held 2 h 5 min');
    expect(shiftDuration({ durationMinutes: 3 * 1440 + 60, current: true })).toBe('for 3 d 1 h so far');
  });
});
