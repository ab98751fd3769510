import { inTransaction } from '../../../db/transactions';
import { SYSTEM_ACTOR } from '../activity/activity';
import { emit } from '../events/outbox';
import { checkLoopState, checkScheduledPause, type LoopState } from './rules';
import { changeWorkspace, readWorkspace, toProfile, type AfterChange, type WorkspaceContext, type WorkspaceProfile } from './workspace-store';

/**
 * The loop's state machine: `on`, `paused` (by hand, or until `pauseUntilAt`) and `off`. Every
 * transition goes through `changeWorkspace` and emits `workspace.loop_state_changed` and
 * `loop.state_changed` in the transaction of its activity row, also when only the scheduled end of a pause moves.
 */

const emitLoopState =
  (ctx: WorkspaceContext): AfterChange =>
  async (trx, before, after) => {
    await emit(trx, ctx.clock, 'workspace.loop_state_changed', { loopState: after.loopState, pauseUntilAt: after.pauseUntilAt });
    // The name webhook subscribers look for (issue 13); it also tells the state before.
    await emit(trx, ctx.clock, 'loop.state_changed', { loopState: after.loopState, previousLoopState: before.loopState, pauseUntilAt: after.pauseUntilAt });
  };

/** A manual state always wins over a scheduled pause, so it clears the schedule. */
export function setLoopState(ctx: WorkspaceContext, loopState: LoopState): Promise<WorkspaceProfile> {
  checkLoopState(loopState);
  return changeWorkspace(ctx, { loopState, pauseUntilAt: null, loopPauseReason: null }, { kind: 'workspace.loop_state', detail: `Loop set to ${loopState}` }, emitLoopState(ctx));
}

/**
 * The desk pauses its own loop (a provider billed past the bound a cycle gave it): `reason` is
 * kept on the workspace for the header until the operator sets the loop state.
 */
export function pauseLoopBecause(ctx: WorkspaceContext, reason: string): Promise<WorkspaceProfile> {
  return changeWorkspace(ctx, { loopState: 'paused', pauseUntilAt: null, loopPauseReason: reason }, { kind: 'workspace.loop_state', detail: `Loop paused by the desk: ${reason}`, actor: SYSTEM_ACTOR }, emitLoopState(ctx));
}

/** Pausing until a time pauses the loop now; null clears the schedule and turns the loop back on. */
export async function setPauseUntil(ctx: WorkspaceContext, pauseUntilAt: string | null): Promise<WorkspaceProfile> {
  if (pauseUntilAt === null) {
    // Decided in the transaction: without a schedule, null must not turn a manual `off` back on.
    return inTransaction(ctx.db, async (trx) => {
      const current = await readWorkspace(trx);
      if (current.pauseUntilAt === null) return toProfile(current);
      return changeWorkspace(ctx, { pauseUntilAt: null, loopState: 'on', loopPauseReason: null }, { kind: 'workspace.pause_cleared', detail: 'Scheduled pause cleared; loop on' }, emitLoopState(ctx));
    });
  }
  const { timezone } = await readWorkspace(ctx.db);
  const at = checkScheduledPause('pauseUntilAt', pauseUntilAt, ctx.clock.now(), timezone);
  return changeWorkspace(ctx, { pauseUntilAt: at, loopState: 'paused', loopPauseReason: null }, { kind: 'workspace.pause_scheduled', detail: `Loop paused until ${at}` }, emitLoopState(ctx));
}

/**
 * Scheduler job: resumes the loop once a scheduled pause has run out. Decided inside the
 * transaction, so a new pause the operator sets meanwhile is never wiped.
 */
export async function resumeIfPauseExpired(ctx: WorkspaceContext): Promise<boolean> {
  const now = ctx.clock.now();
  return inTransaction(ctx.db, async (trx) => {
    const row = await readWorkspace(trx);
    if (row.pauseUntilAt === null || new Date(row.pauseUntilAt).getTime() > now.getTime()) return false;
    await changeWorkspace(
      ctx,
      { pauseUntilAt: null, loopState: 'on' },
      { kind: 'workspace.pause_expired', detail: `Scheduled pause until ${row.pauseUntilAt} ended; loop resumed`, actor: SYSTEM_ACTOR },
      emitLoopState(ctx),
    );
    return true;
  });
}
