import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { HOUR_MS, type Clock } from '../../core/clock';
import { invalid } from '../../core/errors';
import { daysBefore, parseIso } from '../../core/workspace-time';
import type { ActivityKind } from '../catalog/activity-kinds';
import { readWorkspace } from '../workspace/workspace-store';
import { WHATS_NEW_DEFAULT_HOURS, WHATS_NEW_MAX_LOOKBACK_DAYS, WHATS_NEW_SAMPLE_SIZE } from './rules';

/**
 * GET /workspace/whats-new: what happened since a moment (default the last 24 hours). A `since`
 * further back than 30 workspace days is clamped to that bound and said so (`clamped`); a `since`
 * after now or not an ISO time is a 422 naming `since`. Each kind is a count over its time index
 * plus the newest few rows.
 */

/** One sampled thing: its id, a title (an activity's detail), and when it happened. */
export interface WhatsNewItem {
  id: string;
  title: string;
  /** @format date-time */
  at: string;
}

export interface WhatsNewActivityItem extends WhatsNewItem {
  kind: ActivityKind;
  /** What the row is about (task, artifact, memory, signal, source ...), when it names one. */
  entityType: string | null;
  entityId: string | null;
}

export interface WhatsNew {
  /** The start of the window after clamping. @format date-time */
  since: string;
  /** The end of the window: now. @format date-time */
  until: string;
  /** Whether the requested since was further back than the 30-day lookback and was moved up to it. */
  clamped: boolean;
  /**
   * signals: received in the window; artifacts: outputs made in the window, any status;
   * outputs: those of them still waiting for a decision (status ready); approvals: outputs approved
   * in the window (whenever made); activity: activity-log rows written in the window.
   */
  counts: { signals: number; artifacts: number; outputs: number; approvals: number; activity: number };
  /** The newest 3 of each kind, newest first (approvals by decision time). */
  samples: { signals: WhatsNewItem[]; artifacts: WhatsNewItem[]; outputs: WhatsNewItem[]; approvals: WhatsNewItem[]; activity: WhatsNewActivityItem[] };
}

const count = sql<number>`count(*)`.as('n');
const num = (r: { n: unknown }) => Number(r.n ?? 0);

/** The window's start: since (default 24 h back), clamped to the lookback; 422 for a malformed or future one. */
export function whatsNewWindow(since: string | undefined, now: Date, timezone: string): { from: Date; clamped: boolean } {
  const floor = daysBefore(now, timezone, WHATS_NEW_MAX_LOOKBACK_DAYS);
  if (since === undefined) return { from: new Date(now.getTime() - WHATS_NEW_DEFAULT_HOURS * HOUR_MS), clamped: false };
  const at = parseIso('since', since, timezone);
  if (at.getTime() > now.getTime()) throw invalid('since', 'must not be in the future');
  return at.getTime() < floor.getTime() ? { from: floor, clamped: true } : { from: at, clamped: false };
}

export async function whatsNew(db: Db, clock: Clock, since: string | undefined): Promise<WhatsNew> {
  const { timezone } = await readWorkspace(db);
  const now = clock.now();
  const { from: fromDate, clamped } = whatsNewWindow(since, now, timezone);
  const from = fromDate.toISOString();
  const until = now.toISOString();
  const k = WHATS_NEW_SAMPLE_SIZE;
  const made = db.selectFrom('artifacts').where('createdAt', '>=', from).where('createdAt', '<=', until);
  const approved = db.selectFrom('artifacts').where('decidedAt', '>=', from).where('decidedAt', '<=', until).where('status', '=', 'approved');
  const signals = db.selectFrom('signals').where('createdAt', '>=', from).where('createdAt', '<=', until);
  const activity = db.selectFrom('activity').where('createdAt', '>=', from).where('createdAt', '<=', until);
  const [nSignals, nArtifacts, nOutputs, nApprovals, nActivity, sSignals, sArtifacts, sOutputs, sApprovals, sActivity] = await Promise.all([
    signals.select(count).executeTakeFirstOrThrow(),
    made.select(count).executeTakeFirstOrThrow(),
    made.select(count).where('status', '=', 'ready').where('supersededAt', 'is', null).executeTakeFirstOrThrow(),
    approved.select(count).executeTakeFirstOrThrow(),
    activity.select(count).executeTakeFirstOrThrow(),
    signals.select(['id', 'title', 'createdAt as at']).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(k).execute(),
    made.select(['id', 'title', 'createdAt as at']).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(k).execute(),
    made.select(['id', 'title', 'createdAt as at']).where('status', '=', 'ready').where('supersededAt', 'is', null).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(k).execute(),
    approved.select(['id', 'title', 'decidedAt as at']).orderBy('decidedAt', 'desc').orderBy('id', 'desc').limit(k).execute(),
    activity.select(['id', 'detail as title', 'createdAt as at', 'kind', 'entityType', 'entityId']).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(k).execute(),
  ]);
  return {
    since: from,
    until,
    clamped,
    counts: { signals: num(nSignals), artifacts: num(nArtifacts), outputs: num(nOutputs), approvals: num(nApprovals), activity: num(nActivity) },
    samples: {
      signals: sSignals,
      artifacts: sArtifacts,
      outputs: sOutputs,
      approvals: sApprovals.map((r) => ({ ...r, at: r.at ?? '' })),
      activity: sActivity,
    },
  };
}
