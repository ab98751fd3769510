import { DAY_MS } from '../../core/clock';
import { defineList } from '../../core/lists';
import { addDays, type Day } from '../../core/workspace-time';
import { MICRO_USD_PER_USD, UNASSIGNED_KEY, UNTAGGED_KEY } from '../cost/rules';
import { type GuardDimension, GUARD_DIMENSIONS } from '../../core/vocabulary';
export { type GuardDimension, GUARD_DIMENSIONS };

/**
 * Pure rules of the cost guard: the spike rule, the streak, ack lifetimes and the list bounds. One
 * detector serves every dimension; what differs per dimension is data (GUARD_DIMENSIONS), not code.
 */

/** Spec: today at least 2 times the trailing 7-day daily average... */
export const SPIKE_MULTIPLIER = 2;
export const BASELINE_DAYS = 7;
/** ...and at least 0.50 USD. */
export const SPIKE_MIN_MICRO_USD = MICRO_USD_PER_USD / 2;
/** Spec: chronic at 3 consecutive spike days (sources: the workspace's sourceChronicThresholdDays). */
export const CHRONIC_DAYS = 3;
/** Spec: a chronic ack lasts 7 days (elapsed time, as the quietness ack). */
export const CHRONIC_ACK_DAYS = 7;
export const CHRONIC_ACK_MS = CHRONIC_ACK_DAYS * DAY_MS;
/**
 * How many closed days a detector run evaluates at most when it catches up (the longest chronic
 * threshold a workspace can set): older days cannot change any streak that still counts.
 */
export const MAX_CATCH_UP_DAYS = 14;

/** Buckets that name no entity: never spiking, never acked (the spec excludes `untagged`). */
export const UNWATCHED_KEYS: Readonly<Record<GuardDimension, readonly string[]>> = {
  task: [],
  source: [],
  tag: [UNTAGGED_KEY],
  assignee: [UNASSIGNED_KEY],
  memory: [],
};

/** Dimensions with a chronic warning (tasks have a same-day spike only, as the spec's acks say). */
export const hasChronic = (d: GuardDimension): boolean => d !== 'task';

/**
 * The spike rule (inclusive at both bounds): today >= 2 x (sum of the 7 previous days / 7) and
 * today >= 0.50 USD. Compared in integers (today x 7 >= 2 x sum) so no rounding decides a boundary.
 */
export function isSpiking(todayMicro: number, previous7SumMicro: number): boolean {
  return todayMicro >= SPIKE_MIN_MICRO_USD && todayMicro * BASELINE_DAYS >= SPIKE_MULTIPLIER * previous7SumMicro;
}

/** today / baseline (2 decimals); null when the baseline is zero (any spend is infinitely more). */
export function spikeRatio(todayMicro: number, previous7SumMicro: number): number | null {
  if (previous7SumMicro <= 0) return null;
  return Math.round((todayMicro * BASELINE_DAYS * 100) / previous7SumMicro) / 100;
}

/** The streak after `day` spiked, given the last spike day and the streak then (idempotent per day). */
export function nextStreak(lastSpikeDay: Day | null, streak: number, day: Day): number {
  if (lastSpikeDay === day) return streak;
  return lastSpikeDay !== null && addDays(lastSpikeDay, 1) === day ? streak + 1 : 1;
}

/** The streak as of `today`: it holds while the last spike was today or yesterday (today may still spike). */
export function currentStreak(lastSpikeDay: Day | null, streak: number, today: Day): number {
  return lastSpikeDay !== null && lastSpikeDay >= addDays(today, -1) ? streak : 0;
}

/** A same-day ack holds for the rest of the workspace day it was given on. */
export const spikeAckActive = (ackDay: Day | null, today: Day): boolean => ackDay === today;

/** A chronic ack holds 7 days from its stamp. */
export function chronicAckActive(ackedAt: string | null, now: Date): boolean {
  return ackedAt !== null && now.getTime() < new Date(ackedAt).getTime() + CHRONIC_ACK_MS;
}

export const chronicAckExpiry = (ackedAt: string): string => new Date(new Date(ackedAt).getTime() + CHRONIC_ACK_MS).toISOString();

// Lists: spec default 10 for every spike and chronic list.
export const TASK_SPIKES_LIST = defineList('ListTaskCostSpikes', 10, 100);
export const SOURCE_SPIKES_LIST = defineList('ListSourceCostSpikes', 10, 100);
export const MEMORY_SPIKES_LIST = defineList('ListMemoryCostSpikes', 10, 100);
export const MEMORY_CHRONIC_LIST = defineList('ListMemoryChronicWarnings', 10, 100);
export const ASSIGNEE_SPIKES_LIST = defineList('ListAssigneeCostSpikes', 10, 100);
export const ASSIGNEE_CHRONIC_LIST = defineList('ListAssigneeChronicSpikes', 10, 100);
export const SOURCE_CHRONIC_LIST = defineList('ListSourceChronicSpikes', 10, 100);
export const TAG_SPIKES_LIST = defineList('ListTagCostSpikes', 10, 100);
export const TAG_CHRONIC_LIST = defineList('ListTagChronicSpikes', 10, 100);
