import type { WorkspaceTable } from '../../../db/schema';
import { MINUTE_MS } from '../../core/clock';
import { addDays, dayOf, startOfDay } from '../../core/workspace-time';
import { effectiveLoopInterval } from '../workspace/rules';

/**
 * When cycles run (pure): while the loop is `on` and no scheduled pause is ahead, one cycle per
 * effective loop interval (the requested interval with the plan floor applied), measured from the
 * start of the last cycle of any trigger (a Run now restarts the interval; a skipped cycle counts,
 * so the cap writes one skipped record per interval, not one per scheduler tick).
 */

/** What the header shows the desk doing. */
export type RuntimePhase = 'running' | 'idle' | 'paused' | 'off' | 'capped';
export const RUNTIME_PHASES = ['running', 'idle', 'paused', 'off', 'capped'] as const;

export function pauseActive(ws: Pick<WorkspaceTable, 'pauseUntilAt'>, now: Date): boolean {
  return ws.pauseUntilAt !== null && new Date(ws.pauseUntilAt).getTime() > now.getTime();
}

/** Whether the loop lets scheduled cycles run at all. */
export function loopRunning(ws: Pick<WorkspaceTable, 'loopState' | 'pauseUntilAt'>, now: Date): boolean {
  return ws.loopState === 'on' && !pauseActive(ws, now);
}

export function intervalMs(ws: Pick<WorkspaceTable, 'loopIntervalMinutes' | 'plan'>): number {
  return effectiveLoopInterval(ws.loopIntervalMinutes, ws.plan) * MINUTE_MS;
}

/** A scheduled cycle is due: the loop runs and the interval has passed since the last cycle started. */
export function cycleDue(ws: Pick<WorkspaceTable, 'loopState' | 'pauseUntilAt' | 'loopIntervalMinutes' | 'plan'>, lastStartedAt: string | null, now: Date): boolean {
  if (!loopRunning(ws, now)) return false;
  return lastStartedAt === null || now.getTime() - new Date(lastStartedAt).getTime() >= intervalMs(ws);
}

/**
 * When the next scheduled cycle starts: null while off, or paused by hand; with a scheduled pause,
 * not before it ends; when today's spend has reached the cap, not before the next workspace day;
 * never in the past (a due cycle starts within the scheduler's next look, so now).
 */
export function nextCycleAt(ws: Pick<WorkspaceTable, 'loopState' | 'pauseUntilAt' | 'loopIntervalMinutes' | 'plan' | 'timezone'>, lastStartedAt: string | null, now: Date, capped: boolean): string | null {
  if (ws.loopState === 'off') return null;
  if (ws.loopState === 'paused' && ws.pauseUntilAt === null) return null;
  let at = lastStartedAt === null ? now.getTime() : new Date(lastStartedAt).getTime() + intervalMs(ws);
  if (pauseActive(ws, now)) at = Math.max(at, new Date(ws.pauseUntilAt!).getTime());
  if (capped) at = Math.max(at, startOfDay(addDays(dayOf(now, ws.timezone), 1), ws.timezone).getTime());
  return new Date(Math.max(at, now.getTime())).toISOString();
}
