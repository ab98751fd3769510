import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { queryKeys } from '../../api/query-keys';
import { now } from '../../lib/clock';
import { formatDateTime, formatRelative } from '../../lib/format';
import { useLiveStream } from '../live/live-store';
import { workspaceQuery, type WorkspaceProfile } from '../settings/api';
import { STATS_POLL_RUNNING_MS, statsQuery, useRunNow, type DeskStats, type Run } from './api';
import { CancelCycleButton, CycleProgress, cancelledText, type CancelFeedback } from './CycleProgress';
import { formatUsd, producedSummary } from './format';

function loopStateText(ws: WorkspaceProfile, now: Date): string {
  if (ws.loopState === 'off') return 'Loop off';
  if (ws.loopState === 'paused') return 'Loop paused';
  if (ws.pauseUntilAt && new Date(ws.pauseUntilAt).getTime() > now.getTime()) return `Paused until ${formatDateTime(ws.pauseUntilAt)}`;
  return `Loop on · every ${ws.effectiveLoopIntervalMinutes} min`;
}

type LoopAlert = NonNullable<DeskStats['loopAlert']>;

function stateClass(ws: WorkspaceProfile, alert: LoopAlert | null, at: Date): string {
  if (alert?.reason === 'cycle_failed' || alert?.reason === 'cap_reached') return 'alert';
  if (ws.loopState === 'on' && ws.pauseUntilAt && new Date(ws.pauseUntilAt) > at) return 'paused';
  return ws.loopState;
}

/**
 * The loop's state, amber when something stops or troubles it: the last cycle failed (with a link to
 * that run, which says why) or today's spend reached the cap. A pause or "off" reads as such.
 */
function LoopState({ ws, alert }: { ws: WorkspaceProfile; alert: LoopAlert | null }) {
  const at = now();
  const failed = alert?.reason === 'cycle_failed' ? alert : null;
  const text = failed ? 'Last cycle failed' : alert?.reason === 'cap_reached' ? 'Stopped: daily cap reached' : loopStateText(ws, at);
  return (
    <span className="loop-header__item loop-header__alert-group">
      <Link
        to="/settings/$section"
        params={{ section: 'loop' }}
        resetScroll={false}
        className={`loop-header__item loop-header__state loop-header__state--${stateClass(ws, alert, at)}`}
        title={alert && alert.reason !== 'off' ? `${alert.message} (loop settings)` : 'Loop settings'}
        data-testid="loop-state"
      >
        <span className="loop-header__dot" aria-hidden="true" />
        {text}
      </Link>
      {failed?.runId ? (
        <Link to="/runs" search={{ run: failed.runId }} className="loop-header__why" title={failed.message}>
          Why<span className="sr-only"> the last cycle failed</span>
        </Link>
      ) : null}
    </span>
  );
}

function NextCycle({ stats }: { stats: DeskStats }) {
  // While a cycle runs, its progress (beside Run now) says what it is doing.
  if (stats.phase === 'running' || !stats.nextCycleAt) return null;
  return (
    <span className="loop-header__item" title={formatDateTime(stats.nextCycleAt)}>
      <span className="loop-header__label">Next cycle</span> {formatRelative(stats.nextCycleAt)}
    </span>
  );
}

function Spend({ cost }: { cost: DeskStats['cost'] }) {
  const cap = cost.dailyCostCapUsdCents;
  const percent = cost.capPercent ?? 0;
  return (
    <span className="loop-header__item loop-header__spend" title="Estimated spend today (workspace day) against the daily cost cap">
      <span className="loop-header__label">Today</span>
      {cap === null ? (
        <>{formatUsd(cost.todayUsd)} · no cap</>
      ) : (
        <>
          {formatUsd(cost.todayUsd)} of {formatUsd(cap / 100)}
          <span className="loop-header__meter" role="meter" aria-label="Spend against the daily cap" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.min(100, percent)}>
            <span className={`loop-header__meter-fill${percent >= 100 ? ' is-full' : percent >= 80 ? ' is-high' : ''}`} style={{ width: `${Math.min(100, percent)}%` }} />
          </span>
        </>
      )}
    </span>
  );
}

type Message = { tone: 'success' | 'danger' | 'warning'; text: string; runId?: string };

function resultMessage(run: Run): Message {
  if (run.cancelledAt) return { tone: 'success', text: cancelledText(run), runId: run.id };
  if (run.status === 'failed') return { tone: 'danger', text: `The cycle failed: ${run.errorMessage ?? 'no message'}`, runId: run.id };
  if (run.status === 'skipped') return { tone: 'warning', text: 'The cycle did not run: the daily cost cap is reached.', runId: run.id };
  return { tone: 'success', text: `Cycle done: ${producedSummary(run.counts)} · ${formatUsd(run.estimatedCostUsd)}`, runId: run.id };
}

function errorMessage(error: { code: string; message: string }): Message {
  if (error.code === 'cost_cap_reached') return { tone: 'warning', text: "Today's spend has reached the daily cost cap: no cycle ran. Raise the cap in Settings or wait for tomorrow." };
  if (error.code === 'run_in_progress') return { tone: 'warning', text: 'A cycle is already running; its results will appear when it ends.' };
  return { tone: 'danger', text: error.message };
}

/**
 * The loop at a glance above every page: state (on, paused, off, a scheduled pause; amber when the
 * last cycle failed or the cap stopped the loop), when the next cycle starts, today's spend against the cap, the cycle under way (phase and time since it began),
 * and Run now (pressed during a cycle it waits for that one; the answer, a failure or a refusal
 * shows beneath). The shell puts the global search box in the same bar.
 */
export function LoopHeader({ search }: { search?: ReactNode }) {
  const ws = useQuery(workspaceQuery());
  const runNow = useRunNow();
  // While Run now waits, poll as a running cycle does: its record and phase show within a second.
  const stats = useQuery({ ...statsQuery(), ...(runNow.isPending ? { refetchInterval: STATS_POLL_RUNNING_MS } : {}) });
  const [message, setMessage] = useState<Message | null>(null);
  const runButton = useRef<HTMLButtonElement>(null);
  const region = useRef<HTMLDivElement>(null);
  const running = runNow.isPending || stats.data?.phase === 'running';
  const cycle = stats.data?.cycle ?? null;
  const live = useLiveStream((st) => st.status);

  // The desk pauses its own loop from inside a cycle: the loop state beside it is read again then.
  const qc = useQueryClient();
  const pauseReason = stats.data?.loopPauseReason;
  const seenPause = useRef(pauseReason);
  useEffect(() => {
    if (pauseReason === undefined || pauseReason === seenPause.current) return;
    if (seenPause.current !== undefined) void qc.invalidateQueries({ queryKey: queryKeys.workspace.profile });
    seenPause.current = pauseReason;
  }, [pauseReason, qc]);

  // The Cancel button goes with the cycle: focus moves on to Run now once it is usable again.
  const focusRunNow = useRef(false);
  useEffect(() => {
    if (!focusRunNow.current || running) return;
    focusRunNow.current = false;
    // Not taken from where the user has gone since (only from the Cancel button, or nowhere).
    const at = document.activeElement;
    if (at === null || at === document.body || region.current?.contains(at)) runButton.current?.focus();
  });

  const cancelled = (feedback: CancelFeedback) => {
    focusRunNow.current = true;
    setMessage({ tone: feedback.tone, text: feedback.text, runId: feedback.run?.id });
  };

  // A cycle already under way (scheduled, or started elsewhere) is waited for: the click shows it
  // running and then its result, never a refusal.
  const [joined, setJoined] = useState(false);
  const start = () => {
    setJoined(Boolean(cycle));
    setMessage(null);
    runNow.mutate(undefined, { onSuccess: (run) => setMessage(resultMessage(run)), onError: (e) => setMessage(errorMessage(e)) });
  };

  return (
    <div className="loop-header" role="region" aria-label="Loop" ref={region} data-live={live}>
      {ws.data ? <LoopState ws={ws.data} alert={stats.data?.loopAlert ?? null} /> : null}
      {stats.data ? (
        <>
          <NextCycle stats={stats.data} />
          <Spend cost={stats.data.cost} />
        </>
      ) : null}
      {search ? <div className="loop-header__search">{search}</div> : null}
      <span className="loop-header__run">
        {cycle ? (
          <>
            <CycleProgress cycle={cycle} />
            <CancelCycleButton cycle={cycle} onDone={cancelled} />
          </>
        ) : running ? (
          <span className="muted small" role="status">
            <span className="spinner" aria-hidden="true" /> {runNow.isPending ? 'Running a cycle…' : 'A cycle is running…'}
          </span>
        ) : null}
        {runNow.isPending && joined ? (
          <span className="muted small" role="status" data-testid="run-now-waiting">
            Run now waits for this cycle and shows its result.
          </span>
        ) : null}
        <button type="button" ref={runButton} className="button button--small" onClick={start} disabled={runNow.isPending} aria-busy={runNow.isPending}>
          Run now
        </button>
      </span>
      {stats.data?.loopPauseReason ? (
        <p className="notice notice--warning loop-header__message" role="status">
          <span>
            <strong>The desk paused the loop.</strong> {stats.data.loopPauseReason}{' '}
            <Link to="/settings/$section" params={{ section: 'loop' }} resetScroll={false}>
              Loop settings
            </Link>
          </span>
        </p>
      ) : null}
      {message ? (
        <p className={`notice notice--${message.tone} loop-header__message`} role={message.tone === 'danger' ? 'alert' : 'status'}>
          <span>
            {message.text}
            {message.runId ? (
              <>
                {' '}
                <Link to="/runs" search={{ run: message.runId }}>
                  See the run
                </Link>
              </>
            ) : null}
          </span>
          <button type="button" className="link-button small" onClick={() => setMessage(null)}>
            Dismiss
          </button>
        </p>
      ) : null}
    </div>
  );
}
