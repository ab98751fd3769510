import type { Db } from '../../../db/connection';
import { dayOf } from '../../core/workspace-time';
import { chronicAckActive, currentStreak, spikeAckActive, type GuardDimension } from './rules';
import { watchRows } from './watch-store';

/** What a row of another area (a memory entry) shows of its guard state. */
export interface GuardState {
  /** The same-day ack, while it holds (null once the workspace day it was given on is over). */
  costSpikeAckedAt: string | null;
  /** The chronic ack, while it holds (7 days). */
  chronicAckedAt: string | null;
  /** The current streak (0 once a day passed without a spike). */
  consecutiveSpikeDays: number;
}

export const NO_GUARD_STATE: GuardState = { costSpikeAckedAt: null, chronicAckedAt: null, consecutiveSpikeDays: 0 };

/** Guard state of some keys of a dimension as of `now`; keys never watched are absent (NO_GUARD_STATE). */
export async function guardStates(db: Db, dimension: GuardDimension, keys: readonly string[], now: Date, timezone: string): Promise<Map<string, GuardState>> {
  const today = dayOf(now, timezone);
  const out = new Map<string, GuardState>();
  for (const [key, w] of await watchRows(db, dimension, keys)) {
    out.set(key, {
      costSpikeAckedAt: spikeAckActive(w.spikeAckDay, today) ? w.spikeAckedAt : null,
      chronicAckedAt: chronicAckActive(w.chronicAckedAt, now) ? w.chronicAckedAt : null,
      consecutiveSpikeDays: currentStreak(w.lastSpikeDay, w.consecutiveSpikeDays, today),
    });
  }
  return out;
}
