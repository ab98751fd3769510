import { DateTime } from 'luxon';
import { invalid } from '../../core/errors';
import { DAY_MS, HOUR_MS } from '../../core/clock';
import { inQuietHours } from '../dashboard-prefs/rules';
import { type DigestTrigger, DIGEST_TRIGGERS, type DigestOutcome, DIGEST_OUTCOMES, type DigestDelivery, DIGEST_DELIVERIES, type DigestMuteReason, DIGEST_MUTE_REASONS } from '../../core/vocabulary';
export { type DigestTrigger, DIGEST_TRIGGERS, type DigestOutcome, DIGEST_OUTCOMES, type DigestDelivery, DIGEST_DELIVERIES, type DigestMuteReason, DIGEST_MUTE_REASONS };

/**
 * Pure rules of the daily digest: when the production digest runs, the per-recipient gating
 * (quiet weekends, quiet hours, chosen sections), and the bounds of the digest endpoints.
 */

/** Who receives the digest (spec: owners and admins). */
export const DIGEST_ROLES = ['owner', 'admin'] as const;

/** The daily digest goes out from this local hour of the workspace day (08:00). */
export const DIGEST_LOCAL_HOUR = 8;
/**
 * ...and not from this hour on (18:00): a desk that was off in the morning catches up during the
 * working day, but one started in the evening waits for the next morning rather than mail at 21:00
 * (and, through the 22-hour gate, push the next morning's digest into the evening).
 */
export const DIGEST_LAST_LOCAL_HOUR = 18;
/** Spec: at most one production digest per 22 hours per workspace (preview POST bypasses it). */
export const DIGEST_INTERVAL_GATE_HOURS = 22;
export const DIGEST_INTERVAL_GATE_MS = DIGEST_INTERVAL_GATE_HOURS * HOUR_MS;
/** Spec: simulatedDate within 60 days either way of now. */
export const SIMULATED_DATE_WINDOW_DAYS = 60;
/** GET /workspace/digest-audit: sinceDays default 30, max 365; limit default 100 (max ours). */
export const AUDIT_SINCE_DAYS = { min: 1, max: 365, default: 30 } as const;
export const AUDIT_LIMIT = { min: 1, max: 500, default: 100 } as const;

/** `ready` when the outcome is would_send, else the mute reason (spelled out so the OpenAPI document lists one enum). */
export type DigestReason = 'ready' | 'quiet_weekend' | 'quiet_hours' | 'no_sections' | 'no_address' | 'nothing_to_report';
export const DIGEST_REASONS: readonly DigestReason[] = ['ready', ...DIGEST_MUTE_REASONS];

/** The digest preferences gating reads. */
export interface GatingPrefs {
  digestQuietWeekends: boolean;
  digestQuietHoursStart: number | null;
  digestQuietHoursEnd: number | null;
  digestPersonalSections: readonly string[];
}

export interface GatingDecision {
  outcome: DigestOutcome;
  reason: DigestReason;
  /** A sentence for people: what was decided and why. */
  detail: string;
}

const pad = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * A recipient's gating at a workspace-local instant: weekend mute, quiet hours, then sections.
 * The same function serves production, the preview and the simulated date.
 */
export function gateRecipient(prefs: GatingPrefs, local: DateTime): GatingDecision {
  const when = local.toFormat('ccc d LLL yyyy HH:mm');
  if (prefs.digestQuietWeekends && local.weekday >= 6) {
    return { outcome: 'muted', reason: 'quiet_weekend', detail: `Muted: ${when} is a weekend and quiet weekends are on` };
  }
  if (inQuietHours(local.hour, prefs.digestQuietHoursStart, prefs.digestQuietHoursEnd)) {
    return { outcome: 'muted', reason: 'quiet_hours', detail: `Muted: ${when} is within quiet hours ${pad(prefs.digestQuietHoursStart!)}-${pad(prefs.digestQuietHoursEnd!)}` };
  }
  if (prefs.digestPersonalSections.length === 0) {
    return { outcome: 'muted', reason: 'no_sections', detail: 'Muted: no digest section is chosen' };
  }
  return { outcome: 'would_send', reason: 'ready', detail: `Would send at ${when}` };
}

/**
 * Whether the production digest is due at `now`: between 08:00 and 18:00 workspace time, not yet run for
 * this workspace day, and at least 22 hours since the last run (so a late run never doubles up the
 * next morning, and a DST change or a clock moved back never sends twice).
 */
export function digestDue(now: Date, timezone: string, lastRunAt: string | null, lastRunDay: string | null): { due: boolean; day: string; gateOpensAt: string | null } {
  const local = DateTime.fromJSDate(now, { zone: timezone });
  const day = local.toISODate()!;
  const gateOpensAt = lastRunAt === null ? null : new Date(Date.parse(lastRunAt) + DIGEST_INTERVAL_GATE_MS).toISOString();
  const gateOpen = gateOpensAt === null || now.getTime() >= Date.parse(gateOpensAt);
  return { due: local.hour >= DIGEST_LOCAL_HOUR && local.hour < DIGEST_LAST_LOCAL_HOUR && lastRunDay !== day && gateOpen, day, gateOpensAt };
}

/** A simulatedDate: an ISO date-time (or a date: its 08:00 workspace time, when the digest goes out) within 60 days of now. */
export function parseSimulatedDate(raw: string | undefined, now: Date, timezone: string): Date {
  if (raw === undefined) return now;
  const text = raw.trim();
  let parsed: DateTime;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) parsed = DateTime.fromISO(text, { zone: timezone }).set({ hour: DIGEST_LOCAL_HOUR });
  else if (/^\d{4}-\d{2}-\d{2}T/.test(text)) parsed = DateTime.fromISO(text, { zone: timezone, setZone: false });
  else throw invalid('simulatedDate', 'must be an ISO 8601 date-time (e.g. 2026-03-08T08:00:00-05:00) or a date (YYYY-MM-DD: 08:00 workspace time)');
  if (!parsed.isValid) throw invalid('simulatedDate', 'is not a valid date');
  const at = parsed.toJSDate();
  if (Math.abs(at.getTime() - now.getTime()) > SIMULATED_DATE_WINDOW_DAYS * DAY_MS) throw invalid('simulatedDate', `must be within ${SIMULATED_DATE_WINDOW_DAYS} days of now, either way`);
  return at;
}

export function checkIntParam(field: string, raw: number, bounds: { min: number; max: number }): number {
  if (!Number.isInteger(raw) || raw < bounds.min || raw > bounds.max) throw invalid(field, `must be an integer ${bounds.min}-${bounds.max}`);
  return raw;
}
