import { create } from 'zustand';
import { nowMs } from '../../lib/clock';
import { sendBulkDecision, sendDecision, type BulkAction, type Decision } from './api';

/**
 * Decisions held on the client before they are sent, Gmail-style: approving or archiving (one output
 * or all of them) starts a hold of HOLD_MS with an Undo; only when the hold runs out is the request
 * sent, so a decision the desk has stamped (`decidedAt`, immutable) is never taken back. Leaving the
 * Outputs pages or closing the window commits every pending hold at once (nothing is lost), with
 * fetch keepalive when the page is going away.
 *
 * A module-level store because a hold outlives the page that made it: deciding on an output's full
 * page and going back to the queue keeps the same hold and its Undo. Time is the app clock's
 * (lib/clock.ts): a hold is due when `nowMs()` reaches `until`.
 */

export const HOLD_MS = 5_000;

export type HeldDecision = { kind: 'one'; id: string; title: string; decision: Decision } | { kind: 'bulk'; action: BulkAction; count: number };

export interface Hold {
  key: number;
  what: HeldDecision;
  /** When the hold runs out (clock ms). */
  until: number;
  /** `held` can be undone; `sending` is on its way (its rows stay hidden until the lists refresh). */
  state: 'held' | 'sending';
}

/** What the notice says about a decision: "Approved “Title”", "Archived 3 outputs". */
export function describeHold(what: HeldDecision): string {
  if (what.kind === 'one') return `${what.decision === 'approve' ? 'Approved' : 'Archived'} “${what.title}”`;
  return `${what.action === 'approve_all' ? 'Approved' : 'Archived'} ${what.count} output${what.count === 1 ? '' : 's'}`;
}

interface HoldsState {
  holds: Hold[];
  /** The last word about a decision that was sent or undone (or why it failed); shown by the notice. */
  outcome: Outcome | null;
}

export interface Outcome {
  text: string;
  failed: boolean;
  /** The output an Undo put back (the queue selects it again). */
  undoneId?: string;
}

let nextKey = 1;

export const useDecisionHolds = create<HoldsState>(() => ({ holds: [], outcome: null }));

/** Holds a decision for HOLD_MS; answers the hold. */
export function holdDecision(what: HeldDecision): Hold {
  const hold: Hold = { key: nextKey++, what, until: nowMs() + HOLD_MS, state: 'held' };
  useDecisionHolds.setState((s) => ({ holds: [...s.holds, hold], outcome: null }));
  return hold;
}

/** Takes back the newest held decision (or the one with `key`); answers it, or null when none is held. */
export function undoHold(key?: number): Hold | null {
  const held = useDecisionHolds.getState().holds.filter((h) => h.state === 'held' && (key === undefined || h.key === key));
  const hold = held.at(-1);
  if (!hold) return null;
  const undoneId = hold.what.kind === 'one' ? hold.what.id : undefined;
  useDecisionHolds.setState((s) => ({ holds: s.holds.filter((h) => h.key !== hold.key), outcome: { text: `Undone: ${describeHold(hold.what).replace(/^./, (c) => c.toLowerCase())}.`, failed: false, undoneId } }));
  return hold;
}

/** Shows a word about another review action (a reopen, an edit) in the same notice. */
export function announce(text: string, failed = false): void {
  useDecisionHolds.setState({ outcome: { text, failed } });
}

/** Whether an output is hidden from the queue by a pending decision (its own, or a held "all"). */
export function isHeld(holds: readonly Hold[], id: string): boolean {
  return holds.some((h) => (h.what.kind === 'one' ? h.what.id === id : true));
}

/** The held decisions, newest last (for the notice and Undo). */
export const heldOnly = (holds: readonly Hold[]) => holds.filter((h) => h.state === 'held');

type AfterCommit = (hold: Hold) => Promise<unknown> | void;
// Set by the mounted Outputs page (useHoldHost): refreshes the lists once a decision is in.
let afterCommit: AfterCommit | null = null;

/** Called once a sent decision is in (the lists refresh); null when no Outputs page is mounted. */
export function setAfterCommit(fn: AfterCommit | null): void {
  afterCommit = fn;
}

async function send(hold: Hold, keepalive: boolean): Promise<void> {
  const what = hold.what;
  try {
    if (what.kind === 'one') await sendDecision(what.id, what.decision, keepalive);
    else await sendBulkDecision(what.action, keepalive);
    await afterCommit?.(hold);
    useDecisionHolds.setState((s) => ({ holds: s.holds.filter((h) => h.key !== hold.key), outcome: { text: `${describeHold(what)}.`, failed: false } }));
  } catch (err) {
    const verb = what.kind === 'one' ? `${what.decision} “${what.title}”` : what.action === 'approve_all' ? 'approve them all' : 'archive them all';
    useDecisionHolds.setState((s) => ({ holds: s.holds.filter((h) => h.key !== hold.key), outcome: { text: `Could not ${verb}: ${err instanceof Error ? err.message : String(err)}`, failed: true } }));
  }
}

/** Sends the held decisions matching `pick` now, oldest first, one after another (the order they were made). */
async function commit(pick: (h: Hold) => boolean, keepalive: boolean): Promise<void> {
  const due = useDecisionHolds.getState().holds.filter((h) => h.state === 'held' && pick(h));
  if (due.length === 0) return;
  const keys = new Set(due.map((h) => h.key));
  useDecisionHolds.setState((s) => ({ holds: s.holds.map((h) => (keys.has(h.key) ? { ...h, state: 'sending' as const } : h)) }));
  if (keepalive) {
    // The page is going away: every request leaves now, none waits for the one before.
    await Promise.all(due.map((h) => send(h, true)));
    return;
  }
  for (const h of due) await send(h, false);
}

/** Sends the holds whose time is up (by the app clock). */
export const commitDueHolds = (): Promise<void> => {
  const now = nowMs();
  return commit((h) => h.until <= now, false);
};

/** Sends every pending hold at once: leaving the Outputs pages, or (keepalive) the page itself. */
export const commitAllHolds = (keepalive = false): Promise<void> => commit(() => true, keepalive);

/** When the next held decision is due (clock ms), or null with none held. */
export function nextDue(holds: readonly Hold[]): number | null {
  const held = heldOnly(holds);
  return held.length === 0 ? null : Math.min(...held.map((h) => h.until));
}
