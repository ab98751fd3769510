import { useEffect, useState, type Ref } from 'react';
import { nowMs } from '../../lib/clock';
import { useCancelRun, type Run, type RunningCycle } from './api';
import { formatCount, formatUsd } from './format';
import './runs.css';

/** "0:07", "2:05", "1:02:05": time in a phase, as a running clock reads. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** The phase in words, without the clock (what a screen reader hears when it changes). */
export function phaseLabel(cycle: RunningCycle): string {
  if (cycle.cancelling) return 'Cancelling…';
  if (cycle.phase === 'gathering') return 'Gathering…';
  if (cycle.phase === 'applying') return 'Applying…';
  return 'Waiting on the model';
}

/** Re-renders every second while `active` (the elapsed time ticks between polls). */
function useSecondTick(active: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setTick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
}

/**
 * What the cycle under way is doing and for how long: "Gathering… · 0:03", "Waiting on the model ·
 * 0:12 · bound 4,096 tokens", "Applying… · 0:41" (the time since the cycle began, ticking). Only
 * the phase is a live region: the clock beside it is read when the user reaches it, not announced
 * every second.
 */
export function CycleProgress({ cycle }: { cycle: RunningCycle }) {
  const waiting = cycle.phase === 'model' && !cycle.cancelling;
  useSecondTick(true);
  return (
    <span className="cycle-progress">
      <span className="spinner" aria-hidden="true" />
      <span role="status">{phaseLabel(cycle)}</span>
      <span className="cycle-progress__elapsed" title="Time since the cycle began">
        {' · '}
        {formatElapsed(nowMs() - Date.parse(cycle.startedAt))}
      </span>
      {waiting ? (
        <>
          {cycle.maxOutputTokens !== null ? <span title="The longest answer the model may give (fits what is left of the cap)">{` · bound ${formatCount(cycle.maxOutputTokens)} tokens`}</span> : null}
          {cycle.attempt !== null && cycle.attempt > 1 ? <span>{` · attempt ${cycle.attempt}`}</span> : null}
        </>
      ) : null}
    </span>
  );
}

/** What a cancel ended with, in words. */
export function cancelledText(run: Run): string {
  return `Cycle cancelled: nothing was written${run.estimatedCostUsd > 0 ? `; the provider billed ${formatUsd(run.estimatedCostUsd)}` : ' and nothing was billed'}.`;
}

export type CancelFeedback = { tone: 'success' | 'warning' | 'danger'; text: string; run?: Run };

/**
 * Cancel for the cycle under way (no confirmation: a cancelled cycle writes nothing and costs only
 * what was billed). Hidden while it applies (too late); "Cancelling…" until the cycle has stopped.
 */
export function CancelCycleButton({ cycle, onDone, buttonRef }: { cycle: RunningCycle; onDone: (feedback: CancelFeedback) => void; buttonRef?: Ref<HTMLButtonElement> }) {
  const cancel = useCancelRun();
  if (cycle.phase === 'applying' && !cancel.isPending) return null;
  const busy = cancel.isPending || cycle.cancelling;
  const start = () => {
    if (busy) return;
    cancel.mutate(cycle.runId, {
      onSuccess: (run) => onDone({ tone: 'success', text: cancelledText(run), run }),
      onError: (e) => onDone({ tone: e.code === 'run_applying' || e.code === 'run_not_running' ? 'warning' : 'danger', text: e.message }),
    });
  };
  return (
    // aria-disabled, not disabled: a keyboard user's focus stays on the button while the cycle stops.
    <button type="button" ref={buttonRef} className="button button--small button--secondary" onClick={start} aria-disabled={busy} aria-busy={busy} aria-label={busy ? 'Cancelling the cycle' : 'Cancel the cycle'}>
      {busy ? 'Cancelling…' : 'Cancel'}
    </button>
  );
}
