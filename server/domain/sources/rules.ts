import { DAY_MS, MINUTE_MS } from '../../core/clock';
import { conflict, invalid, type DeskError } from '../../core/errors';
import { defineList } from '../../core/lists';
import { checkHttpUrl, checkIdList, MAX_URL_LENGTH } from '../../core/input';
import { filePathOf } from '../../integrations/feeds/file-import';
import { SOURCE_TYPES, type SourceType, SOURCE_STATUSES, type SourceStatus } from '../../core/vocabulary';
export { SOURCE_TYPES, type SourceType, SOURCE_STATUSES, type SourceStatus };

/**
 * Pure rules of sources: types, limits, cadence and poll gating, backoff, quietness, keyword filters.
 *
 * Types: `rss`, `review_site`, `linkedin` are feed-style (polled, url required, http or https);
 * `manual` is never polled (signals come from POST /signals or the inbound webhook);
 * `file` is file-based (url is an absolute path or file:// URL of a .csv or .json file, imported
 * once on create and again on demand, never polled).
 */
export const FEED_TYPES = ['rss', 'review_site', 'linkedin'] as const;
export type FeedType = (typeof FEED_TYPES)[number];
/**
 * What PATCH /sources/{id} `{ status }` takes (spec: "pause and resume use this"): a status, or
 * `paused`, an indefinite pause that keeps the stored status. `connected` on a paused source resumes it.
 */
export const SOURCE_STATUS_CHANGES = ['paused', ...SOURCE_STATUSES] as const;
export type SourceStatusChange = (typeof SOURCE_STATUS_CHANGES)[number];

export const MAX_LABEL_CHARS = 80;
export const MAX_NOTES_CHARS = 2000;
export const MAX_KEYWORDS = 20;
export const MAX_KEYWORD_CHARS = 60;
export const MIN_POLL_INTERVAL = 1;
export const MAX_POLL_INTERVAL = 1440;
/** Backoff after failures never waits longer than this. */
export const MAX_BACKOFF_MS = DAY_MS;
export const QUIETNESS_BASE_FLOOR_DAYS = 14;
export const QUIETNESS_MAX_FLOOR_DAYS = 90;
export const QUIETNESS_ACK_DAYS = 7;
export const QUIETNESS_ACK_MS = QUIETNESS_ACK_DAYS * DAY_MS;

/** GET /sources: newest first, 50 a page by default, at most 200 (the limits the API had before cursors). */
export const SOURCE_LIST = defineList('ListSources', 50, 200);

/**
 * 409 `wrong_source_type`: the operation does not apply to this kind of source (polling a manual
 * source, a poll interval or quietness on a file source, importing into a feed). By the status
 * policy in core/errors.ts this is the target's state, not a malformed request.
 */
export function wrongSourceType(source: { id: string; label: string; type: string }, appliesTo: string): DeskError {
  return conflict('wrong_source_type', `${source.label} (${source.id}) is a ${source.type} source; ${appliesTo}`);
}

export const isFeedType = (type: string): type is FeedType => (FEED_TYPES as readonly string[]).includes(type);

export function checkType(type: string): SourceType {
  if (!(SOURCE_TYPES as readonly string[]).includes(type)) throw invalid('type', `must be one of ${SOURCE_TYPES.join(', ')}`);
  return type as SourceType;
}

export function checkStatus(status: string): SourceStatusChange {
  if (!(SOURCE_STATUS_CHANGES as readonly string[]).includes(status)) throw invalid('status', `must be one of ${SOURCE_STATUS_CHANGES.join(', ')}`);
  return status as SourceStatusChange;
}

/** Trimmed label of 1-80 characters. */
export function checkLabel(label: unknown, field = 'label'): string {
  const value = typeof label === 'string' ? label.trim() : '';
  if (value.length === 0) throw invalid(field, 'must not be empty');
  if (value.length > MAX_LABEL_CHARS) throw invalid(field, `must be at most ${MAX_LABEL_CHARS} characters`);
  return value;
}

export function checkNotes(notes: string | null | undefined): string | null {
  if (notes === null || notes === undefined) return null;
  const value = notes.trim();
  if (value.length > MAX_NOTES_CHARS) throw invalid('notes', `must be at most ${MAX_NOTES_CHARS} characters`);
  return value || null;
}

export function checkPollInterval(minutes: number | null, field = 'pollIntervalMinutes'): number | null {
  if (minutes === null) return null;
  if (!Number.isInteger(minutes) || minutes < MIN_POLL_INTERVAL || minutes > MAX_POLL_INTERVAL) {
    throw invalid(field, `must be an integer from ${MIN_POLL_INTERVAL} to ${MAX_POLL_INTERVAL}, or null for the workspace cadence`);
  }
  return minutes;
}

/** The url a source of this type needs: http(s) for feeds, a .csv/.json location for files, optional for manual. */
export function checkSourceUrl(type: SourceType, url: string | null | undefined): string | null {
  const value = url?.trim() || null;
  if (type === 'manual') return value === null ? null : checkHttpUrl('url', value);
  if (value === null) throw invalid('url', `is required for ${type} sources`);
  if (type === 'file') {
    if (value.length > MAX_URL_LENGTH) throw invalid('url', `must be at most ${MAX_URL_LENGTH} characters`);
    if (!filePathOf(value)) throw invalid('url', 'must be an absolute path or file:// URL of a .csv or .json file');
    return value;
  }
  return checkHttpUrl('url', value);
}

/** The id list of a bulk call on sources: 1-50 ids, duplicates folded. */
export function checkIds(ids: string[] | undefined, field = 'sourceIds'): string[] {
  return checkIdList(ids, field);
}

/** Trimmed, case-insensitively de-duplicated keywords: at most 20, each 1-60 characters. */
export function normaliseKeywords(list: string[] | undefined, field: string): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw invalid(field, 'must be an array of strings');
  if (list.length > MAX_KEYWORDS) throw invalid(field, `must hold at most ${MAX_KEYWORDS} keywords`);
  const out: string[] = [];
  list.forEach((raw, i) => {
    const k = typeof raw === 'string' ? raw.trim() : '';
    if (k.length === 0 || k.length > MAX_KEYWORD_CHARS) throw invalid(`${field}[${i}]`, `must be 1-${MAX_KEYWORD_CHARS} characters`);
    if (!out.some((o) => o.toLowerCase() === k.toLowerCase())) out.push(k);
  });
  return out;
}

/**
 * Keyword filter over title + detail: case-insensitive substring match. An empty include list
 * lets everything in; any exclude match keeps the item out (exclude wins).
 */
export function passesKeywords(text: string, include: string[], exclude: string[]): boolean {
  const hay = text.toLowerCase();
  if (exclude.some((k) => hay.includes(k.toLowerCase()))) return false;
  return include.length === 0 || include.some((k) => hay.includes(k.toLowerCase()));
}

/** A source's effective interval: its own or the workspace cadence, never below the plan floor. */
export function effectiveInterval(override: number | null, workspaceCadence: number, planFloor: number): number {
  return Math.max(override ?? workspaceCadence, planFloor);
}

/** Wait after the Nth failure in a row: interval * 2^N, at most 24 hours. */
export function backoffMs(intervalMinutes: number, failures: number): number {
  return Math.min(intervalMinutes * MINUTE_MS * 2 ** Math.min(failures, 30), MAX_BACKOFF_MS);
}

export interface PollGating {
  /** Effective minutes between polls (own override or workspace cadence, at least the plan floor). */
  intervalMinutes: number;
  /** True when the source has its own pollIntervalMinutes. */
  isOverride: boolean;
  lastSyncedAt: string | null;
  /** When the next poll is due; null while paused without an end. */
  nextPollAt: string | null;
  isDueNow: boolean;
  /** Whole minutes until due (0 when due); null while paused without an end. */
  minutesUntilDue: number | null;
}

export interface GatingInput {
  type: string;
  pollIntervalMinutes: number | null;
  lastSyncedAt: string | null;
  lastPolledAt: string | null;
  consecutiveFailures: number;
  nextRetryAt: string | null;
  pausedAt: string | null;
  pausedUntilAt: string | null;
  createdAt: string;
}

/**
 * When a feed source is next polled: never polled = due at once; after failures = at the backoff
 * time; otherwise one interval after the last attempt. Paused sources are not due; a scheduled
 * pause moves the due time to its end at the earliest. Null for types that are not polled.
 */
export function pollGating(s: GatingInput, workspaceCadence: number, planFloor: number, now: Date): PollGating | null {
  if (!isFeedType(s.type)) return null;
  const intervalMinutes = effectiveInterval(s.pollIntervalMinutes, workspaceCadence, planFloor);
  let next: number | null;
  if (s.lastPolledAt === null) next = Math.min(new Date(s.createdAt).getTime(), now.getTime());
  else if (s.consecutiveFailures > 0 && s.nextRetryAt) next = new Date(s.nextRetryAt).getTime();
  else next = new Date(s.lastPolledAt).getTime() + intervalMinutes * MINUTE_MS;
  if (s.pausedAt !== null) next = s.pausedUntilAt === null ? null : Math.max(next, new Date(s.pausedUntilAt).getTime());
  const nowMs = now.getTime();
  return {
    intervalMinutes,
    isOverride: s.pollIntervalMinutes !== null,
    lastSyncedAt: s.lastSyncedAt,
    nextPollAt: next === null ? null : new Date(next).toISOString(),
    isDueNow: s.pausedAt === null && next !== null && next <= nowMs,
    minutesUntilDue: next === null ? null : Math.max(0, Math.ceil((next - nowMs) / MINUTE_MS)),
  };
}

/** Quietness floor: 14 days, or twice the cadence when that is longer, at most 90 days. */
export function quietnessFloorMs(intervalMinutes: number): number {
  return Math.min(Math.max(QUIETNESS_BASE_FLOOR_DAYS * DAY_MS, 2 * intervalMinutes * MINUTE_MS), QUIETNESS_MAX_FLOOR_DAYS * DAY_MS);
}

/** A quietness ack mutes for 7 days (a fresh signal clears it sooner: see insertSignal). */
export function quietnessAckActive(ackedAt: string | null, now: Date): boolean {
  return ackedAt !== null && now.getTime() - new Date(ackedAt).getTime() < QUIETNESS_ACK_MS;
}

/** A literal find/replace over a label; case-insensitive unless asked otherwise. */
export function replaceInLabel(label: string, find: string, replace: string, caseSensitive: boolean): string {
  const pattern = new RegExp(find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), caseSensitive ? 'g' : 'gi');
  return label.replace(pattern, () => replace);
}
