import { invalid } from '../../core/errors';
import { checkHttpUrl, MAX_BULK_IDS } from '../../core/input';
import { defineList } from '../../core/lists';
import { EVENT_NAMES, type EventName } from '../catalog/events';
import { DELIVERY_STATES, type DeliveryState, ATTEMPT_TRIGGERS, type AttemptTrigger, ATTEMPT_OUTCOMES, type AttemptOutcome, DISABLED_REASONS, type DisabledReason } from '../../core/vocabulary';
export { DELIVERY_STATES, type DeliveryState, ATTEMPT_TRIGGERS, type AttemptTrigger, ATTEMPT_OUTCOMES, type AttemptOutcome, DISABLED_REASONS, type DisabledReason };

/**
 * Outbound webhooks: the limits, vocabularies and pure decisions (retry schedule, Retry-After,
 * when a failing subscription is disabled). The delivery worker and the services apply them.
 */

/**
 * Subscriptions per workspace (not in the spec): one per receiving service is the idea. As many as
 * one bulk call takes, so a single pause, resume or delete can reach every subscription.
 */
export const MAX_SUBSCRIPTIONS = MAX_BULK_IDS;
export const MAX_SUBSCRIPTION_LABEL = 80;

export const OUTBOUND_BULK_ACTIONS = ['pause', 'resume', 'delete'] as const;
export type OutboundBulkAction = (typeof OUTBOUND_BULK_ACTIONS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'disabled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The wait before each retry: the first attempt is immediate, then 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h (8 attempts over about 27.6 hours), each plus up to JITTER_FRACTION so receivers that
 * came back are not hit by every desk's backlog at the same instant.
 */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
export const MAX_SCHEDULED_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER_FRACTION = 0.1;

/** One HTTP attempt: connect, send and answer within this. */
export const DELIVERY_TIMEOUT_MS = 15 * SECOND;
/** Bytes of the receiver's answer kept in the log (the rest is not read). */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** A subscription whose scheduled attempts all failed for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 24 * HOUR;
/** Attempts, finished deliveries and delivered outbox rows older than this are pruned (daily job). */
export const RETENTION_DAYS = 30;
/** HTTP posts in flight at once; a subscription has at most one, so a slow receiver holds one slot. */
export const MAX_IN_FLIGHT = 4;
/** Retry-After (on 429 and 503) is honoured within these bounds. */
export const RETRY_AFTER_MIN_MS = SECOND;
export const RETRY_AFTER_MAX_MS = 24 * HOUR;

/** GET /outbound/deliveries: newest attempts first. */
export const DELIVERIES_LIST = defineList('ListOutboundDeliveries', 20, 100);

/** The receiver: an absolute http(s) URL (local services are fine: 127.0.0.1 is a valid receiver). */
export const checkSubscriptionUrl = (value: unknown): string => {
  if (typeof value !== 'string') throw invalid('url', 'must be an http(s) URL');
  return checkHttpUrl('url', value);
};

/** The label: optional, trimmed, 1-80 characters when given; null or blank means none. */
export function checkSubscriptionLabel(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid('label', 'must be a string');
  const t = value.trim();
  if (t.length === 0) return null;
  if ([...t].length > MAX_SUBSCRIPTION_LABEL) throw invalid('label', `must be at most ${MAX_SUBSCRIPTION_LABEL} characters`);
  return t;
}

const KNOWN = new Set<string>(EVENT_NAMES);

/** The event set: at least one known event name; duplicates folded, order kept. */
export function checkEventNames(value: unknown): EventName[] {
  if (!Array.isArray(value) || value.length < 1 || value.length > EVENT_NAMES.length) {
    throw invalid('events', `must list 1-${EVENT_NAMES.length} event names (GET /outbound/subscriptions lists them)`);
  }
  value.forEach((name, i) => {
    if (typeof name !== 'string' || !KNOWN.has(name)) throw invalid(`events[${i}]`, 'is not a known event name (GET /outbound/subscriptions lists them)');
  });
  return [...new Set(value as EventName[])];
}

export function checkBulkAction(value: unknown): OutboundBulkAction {
  if (typeof value !== 'string' || !(OUTBOUND_BULK_ACTIONS as readonly string[]).includes(value)) {
    throw invalid('action', `must be one of ${OUTBOUND_BULK_ACTIONS.join(', ')}`);
  }
  return value as OutboundBulkAction;
}

/**
 * The wait after the scheduled attempt number `attempt` (1-based) failed, jitter included; null
 * when it was the last one. `random` is in [0, 1) (injectable for tests).
 */
export function retryDelayMs(attempt: number, random: () => number): number | null {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + JITTER_FRACTION * random()));
}

/**
 * Retry-After as a wait in ms: delay-seconds or an HTTP date (relative to `now`), clamped to
 * [RETRY_AFTER_MIN_MS, RETRY_AFTER_MAX_MS]; null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * SECOND;
  else {
    const at = Date.parse(text);
    if (!Number.isFinite(at) || !/[a-z]/i.test(text)) return null;
    ms = at - now.getTime();
  }
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, ms));
}

/** Statuses whose Retry-After is honoured. */
export const honoursRetryAfter = (status: number): boolean => status === 429 || status === 503;

/** Only a 2xx answer is a successful delivery (a 3xx is not followed: a failure naming Location). */
export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** A scheduled failure disables the subscription once it has been failing for FAILING_DISABLE_MS. */
export function failingTooLong(failingSince: string | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - new Date(failingSince).getTime() >= FAILING_DISABLE_MS;
}

/** scheme://host[:port] of a URL: what activity rows and events name (a path or query may carry a receiver's own token). */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
