import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/query-keys';
import { EVENT_NAME } from '../../api/rules.gen';
import { EVENT_AFFECTS, EVERYTHING, keysForEvent } from './event-keys';
import { createInvalidator } from './use-live-events';

const areas = new Set(Object.keys(queryKeys));
const has = (event: string, key: readonly unknown[]) => {
  const keys = keysForEvent(event);
  return keys !== EVERYTHING && keys.some((k) => JSON.stringify(k) === JSON.stringify(key));
};

describe('EVENT_AFFECTS', () => {
  it('has one row per event of the catalog, and none for an event the desk does not send', () => {
    expect(Object.keys(EVENT_AFFECTS).sort()).toEqual([...EVENT_NAME].sort());
  });

  it('names only keys of the app (an area of queryKeys, as a prefix)', () => {
    for (const [event, affects] of Object.entries(EVENT_AFFECTS)) {
      if (affects === EVERYTHING) continue;
      for (const key of affects) expect(areas.has(String(key[0])), `${event}: ${JSON.stringify(key)}`).toBe(true);
    }
  });

  it('a failed or completed cycle refreshes the header, Today, Cost, Runs, Outputs, Signals and Tasks', () => {
    for (const event of ['run.failed', 'run.completed']) {
      for (const key of [queryKeys.stats.all, queryKeys.overview.all, queryKeys.cost.all, queryKeys.runs.all, queryKeys.artifacts.all, queryKeys.signals.all, queryKeys.tasks.all]) {
        expect(has(event, key), `${event} -> ${JSON.stringify(key)}`).toBe(true);
      }
    }
  });

  it('a new signal refreshes Signals, Sources and Today; a source that connects refreshes Sources', () => {
    expect(has('signal.created', queryKeys.signals.all)).toBe(true);
    expect(has('signal.created', queryKeys.sources.all)).toBe(true);
    expect(has('signal.created', queryKeys.overview.all)).toBe(true);
    expect(has('source.connected', queryKeys.sources.all)).toBe(true);
    expect(has('source.errored', queryKeys.stats.all)).toBe(true);
  });

  it('the cap and the loop state refresh the header, and the cap Cost and Today too', () => {
    for (const key of [queryKeys.stats.all, queryKeys.cost.all, queryKeys.overview.all, queryKeys.workspace.all]) {
      expect(has('workspace.cost_cap_changed', key)).toBe(true);
      expect(has('cost.cap_reached', key)).toBe(true);
    }
    expect(has('workspace.loop_state_changed', queryKeys.stats.all)).toBe(true);
    expect(has('workspace.loop_state_changed', queryKeys.workspace.all)).toBe(true);
  });

  it('a decision on an output refreshes Outputs and the header', () => {
    for (const event of ['artifact.approved', 'artifact.archived', 'artifact.created', 'artifact.superseded']) {
      expect(has(event, queryKeys.artifacts.all)).toBe(true);
      expect(has(event, queryKeys.stats.all)).toBe(true);
    }
  });

  it('every event refreshes the activity log and the Webhooks section; an import or an event this app does not know refreshes everything', () => {
    expect(has('task.created', queryKeys.activity.all)).toBe(true);
    expect(has('signal.created', queryKeys.outbound.all)).toBe(true);
    // The relay's delivered count (Settings › Integrations) moves with each relayed signal.
    expect(has('signal.created', queryKeys.integrations.all)).toBe(true);
    expect(keysForEvent('workspace.imported')).toBe(EVERYTHING);
    expect(keysForEvent('something.new')).toBe(EVERYTHING);
  });

  it('a token rotation refreshes nothing: a refetch racing the rotation answer would send the old token', () => {
    expect(keysForEvent('workspace.token_rotated')).toEqual([]);
  });
});

describe('createInvalidator', () => {
  function cacheWith(keys: ReadonlyArray<readonly unknown[]>) {
    const qc = new QueryClient();
    for (const key of keys) qc.setQueryData(key, { v: 1 });
    return qc;
  }
  const stale = (qc: QueryClient) =>
    qc
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => q.queryKey[0])
      .sort();

  it('marks stale what the events of one chunk affect, after the chunk, and nothing else', async () => {
    const qc = cacheWith([queryKeys.stats.all, queryKeys.signals.list({}), queryKeys.memory.list({}), queryKeys.templates.list]);
    const inv = createInvalidator(qc);
    inv.event('signal.created');
    inv.event('signal.created');
    inv.event('workspace.cost_cap_changed');
    expect(stale(qc)).toEqual([]);
    await Promise.resolve();
    expect(stale(qc)).toEqual(['signals', 'stats']);
  });

  it('a resync marks everything stale', async () => {
    const qc = cacheWith([queryKeys.stats.all, queryKeys.templates.list, queryKeys.memory.list({})]);
    const inv = createInvalidator(qc);
    inv.event('task.created');
    inv.everything();
    await Promise.resolve();
    expect(stale(qc)).toEqual(['memory', 'stats', 'templates']);
  });
});
