import { HOUR_MS } from '../../core/clock';
import { attentionAt, type ApprovalPolicy } from './attention';
import { approvalAging } from './queue-stats';

/**
 * The desktop's view of the review queue: how many outputs wait, and which ones just crossed into
 * overdue. Crossing happens by time passing (no write), so this is a transition between two looks:
 * pure, so the watcher (server/domain/artifacts/attention-watcher.ts) and its tests only feed it
 * the ready outputs, the clock and the approval policy.
 */

/** A ready output as the review queue projects it (its effective review clock). */
export interface WaitingOutput {
  id: string;
  readyAt: string;
}

/** The review queue's attention counts, from the queue's own aging aggregate. */
export interface ReviewAttentionCounts {
  /** Ready outputs waiting for a decision (approvalAging.waiting). */
  ready: number;
  /** Labelled `watch`: past the watch threshold, not yet overdue. */
  watch: number;
  /** Labelled `overdue` (approvalAging.pastOverdue). */
  overdue: number;
}

export interface OverdueWatchState {
  counts: ReviewAttentionCounts;
  /**
   * Ready outputs already accounted for as overdue (reported, or overdue before the watch could
   * see them cross). Holds only outputs still ready: a decided output leaves it for good.
   */
  known: ReadonlySet<string>;
}

export interface OverdueStep {
  state: OverdueWatchState;
  /** Outputs that crossed into overdue since the previous look, in the order given (oldest first). */
  newlyOverdue: string[];
  /** The first look, different counts, or something newly overdue: worth telling the desktop. */
  changed: boolean;
}

/** When a ready output becomes overdue under a policy (the same exact-ms threshold as attentionAt). */
export function overdueFrom(readyAt: string, policy: ApprovalPolicy): number {
  return Date.parse(readyAt) + policy.overdueHours * HOUR_MS;
}

const sameCounts = (a: ReviewAttentionCounts, b: ReviewAttentionCounts) => a.ready === b.ready && a.watch === b.watch && a.overdue === b.overdue;

/**
 * One look at the ready outputs. Each output is reported once, when it crosses into overdue:
 * - later looks report the overdue outputs the previous look had not accounted for;
 * - the first look of a process (no `previous`) reports only the outputs that crossed after
 *   `lastLookedAt`, the previous process's last look: outputs that went overdue while the desk was
 *   closed are news, outputs already overdue (and reported) before are not. Without any earlier
 *   look (a fresh desk, or the first run of this watcher) nothing is reported: the counts show them.
 */
export function watchOverdue(
  previous: OverdueWatchState | null,
  waiting: readonly WaitingOutput[],
  now: Date,
  policy: ApprovalPolicy,
  lastLookedAt: Date | null,
): OverdueStep {
  const aging = approvalAging(
    waiting.map((w) => ({ artifactId: w.id, readyAt: w.readyAt, ownerId: null })),
    now,
    policy,
  );
  const counts: ReviewAttentionCounts = { ready: aging.waiting, watch: aging.pastWatch - aging.pastOverdue, overdue: aging.pastOverdue };
  const known = new Set<string>();
  const newlyOverdue: string[] = [];
  for (const w of waiting) {
    // Once reported, an output stays known while it waits (a policy change back and forth must not report it twice).
    if (previous?.known.has(w.id)) known.add(w.id);
    if (attentionAt(w.readyAt, now, policy) !== 'overdue') continue;
    known.add(w.id);
    const isNew = previous
      ? !previous.known.has(w.id)
      : lastLookedAt !== null && overdueFrom(w.readyAt, policy) > lastLookedAt.getTime();
    if (isNew) newlyOverdue.push(w.id);
  }
  const changed = previous === null || newlyOverdue.length > 0 || !sameCounts(previous.counts, counts);
  return { state: { counts, known }, newlyOverdue, changed };
}
