import { beforeEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json } from '../../testing/fake-api';
import { commitAllHolds, commitDueHolds, describeHold, holdDecision, HOLD_MS, isHeld, nextDue, undoHold, useDecisionHolds } from './decision-holds';

let start: number;
let desk: ReturnType<typeof fakeFetch>;

beforeEach(() => {
  start = fixClock('2026-03-11T16:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  desk = fakeFetch((call) => (call.path.endsWith('/art_bad/approve') ? json(409, { error: 'artifact_decided', message: 'That output is already decided.' }) : json(200, {})));
});

const sent = () => desk.calls.map((c) => `${c.method} ${c.path}`);
const holds = () => useDecisionHolds.getState().holds;

describe('held decisions', () => {
  it('holds a decision for HOLD_MS by the app clock, then sends it', async () => {
    const hold = holdDecision({ kind: 'one', id: 'art_1', title: 'Draft', decision: 'approve' });
    expect(hold.until).toBe(start + HOLD_MS);
    expect(nextDue(holds())).toBe(start + HOLD_MS);
    setClock(() => start + HOLD_MS - 1);
    await commitDueHolds();
    expect(sent()).toEqual([]);
    setClock(() => start + HOLD_MS);
    await commitDueHolds();
    expect(sent()).toEqual(['POST /api/v1/artifacts/art_1/approve']);
    expect(holds()).toEqual([]);
    expect(useDecisionHolds.getState().outcome).toEqual({ text: 'Approved “Draft”.', failed: false });
  });

  it('undo takes back the newest held decision (or the one named) and nothing is sent', async () => {
    const first = holdDecision({ kind: 'one', id: 'art_1', title: 'One', decision: 'approve' });
    holdDecision({ kind: 'one', id: 'art_2', title: 'Two', decision: 'archive' });
    expect(undoHold()?.what).toMatchObject({ id: 'art_2' });
    expect(useDecisionHolds.getState().outcome).toEqual({ text: 'Undone: archived “Two”.', failed: false, undoneId: 'art_2' });
    expect(undoHold(first.key)?.what).toMatchObject({ id: 'art_1' });
    expect(undoHold()).toBeNull();
    setClock(() => start + HOLD_MS * 2);
    await commitDueHolds();
    expect(sent()).toEqual([]);
  });

  it('a decision on its way can no longer be undone', async () => {
    holdDecision({ kind: 'one', id: 'art_1', title: 'One', decision: 'approve' });
    const sending = commitAllHolds();
    expect(holds()[0].state).toBe('sending');
    expect(undoHold()).toBeNull();
    await sending;
    expect(sent()).toEqual(['POST /api/v1/artifacts/art_1/approve']);
  });

  it('a held "all" hides every output and is sent as one bulk decision', async () => {
    holdDecision({ kind: 'bulk', action: 'archive_all', count: 4 });
    expect(isHeld(holds(), 'art_any')).toBe(true);
    expect(describeHold(holds()[0].what)).toBe('Archived 4 outputs');
    await commitAllHolds();
    expect(desk.calls.map((c) => [c.path, c.body])).toEqual([['/api/v1/artifacts/bulk', { action: 'archive_all' }]]);
  });

  it('a refused decision says why and puts the output back', async () => {
    holdDecision({ kind: 'one', id: 'art_bad', title: 'Late', decision: 'approve' });
    expect(isHeld(holds(), 'art_bad')).toBe(true);
    await commitAllHolds();
    expect(isHeld(holds(), 'art_bad')).toBe(false);
    expect(useDecisionHolds.getState().outcome).toEqual({ text: 'Could not approve “Late”: That output is already decided.', failed: true });
  });
});
