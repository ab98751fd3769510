import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { queryKeys } from '../../api/query-keys';
import { nowMs } from '../../lib/clock';
import { decisionAffects } from './api';
import { commitAllHolds, commitDueHolds, describeHold, heldOnly, nextDue, setAfterCommit, undoHold, useDecisionHolds, type Hold } from './decision-holds';

/**
 * Runs the held decisions while an Outputs page (the queue or an output's page) is open: sends each
 * when its hold runs out, refreshes the lists once it is in, and sends every pending one at once when
 * the last Outputs page closes (another page of the app) or the window itself goes away (keepalive).
 */

export function useHoldHost(): void {
  const qc = useQueryClient();
  const router = useRouter();
  const due = useDecisionHolds((s) => nextDue(s.holds));

  useEffect(() => {
    setAfterCommit((hold: Hold) => {
      const keys = [...decisionAffects(hold.what.kind === 'one' ? hold.what.id : undefined), queryKeys.activity.all];
      return Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
    });
  }, [qc]);

  useEffect(() => {
    const away = () => void commitAllHolds(true);
    window.addEventListener('pagehide', away);
    window.addEventListener('beforeunload', away);
    return () => {
      window.removeEventListener('pagehide', away);
      window.removeEventListener('beforeunload', away);
      // Unmounted by a navigation: the router is at the new place. From the queue to an output's page
      // (or back) is not leaving; any other page is.
      if (!/^\/outputs(\/|$)/.test(router.state.location.pathname)) void commitAllHolds();
    };
  }, [router]);

  useEffect(() => {
    if (due === null) return;
    let timer: ReturnType<typeof setTimeout>;
    const fire = () => {
      void commitDueHolds();
      // A clock that has not reached the hold yet (a test's fixed clock) waits again.
      const next = nextDue(useDecisionHolds.getState().holds);
      if (next !== null && next > nowMs()) timer = setTimeout(fire, next - nowMs());
    };
    timer = setTimeout(fire, Math.max(0, due - nowMs()));
    return () => clearTimeout(timer);
  }, [due]);

  // u, z and Ctrl+Z (⌘Z) take back the newest held decision; in a text field they stay the field's.
  useHotkeys('u, z, ctrl+z, meta+z', (e) => {
    if (heldOnly(useDecisionHolds.getState().holds).length === 0) return;
    e.preventDefault();
    undoHold();
  });
}

/** "Approved “Title” · Undo" while a decision is held; afterwards what was sent (or undone, or failed). */
export function HoldNotice() {
  const holds = useDecisionHolds((s) => s.holds);
  const outcome = useDecisionHolds((s) => s.outcome);
  const held = heldOnly(holds);
  const newest = held.at(-1);
  return (
    <div className="hold-notice-slot" role="status">
      {newest ? (
        <p className="queue-notice hold-notice small">
          <span>{describeHold(newest.what)}</span>
          {held.length > 1 ? <span className="muted"> (and {held.length - 1} more waiting to be sent)</span> : null}
          <span aria-hidden="true"> · </span>
          <button type="button" className="button button--ghost button--small" onClick={() => undoHold(newest.key)}>
            Undo
          </button>
          <span className="muted"> (u)</span>
        </p>
      ) : outcome ? (
        <p className={`queue-notice small${outcome.failed ? ' queue-notice--error' : ''}`}>{outcome.text}</p>
      ) : null}
    </div>
  );
}
