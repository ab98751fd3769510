import { IDS } from './ids';
import { at, type FixtureRow, type VersionFixture } from './types';

const watch = { last_spike_day: null, consecutive_spike_days: 0, spike_event_day: null, chronic_event_day: null, spike_acked_at: null, spike_ack_day: null, chronic_acked_at: null, paused_at: null, chronic_paused_at: null };

export const fixture: VersionFixture = {
  rows: {
    cost_watch: [
      { ...watch, dimension: 'task', key: IDS.task, last_spike_day: '2026-03-09', consecutive_spike_days: 1, spike_event_day: '2026-03-09', spike_acked_at: at(9, '15:00:00'), spike_ack_day: '2026-03-09' },
      { ...watch, dimension: 'source', key: IDS.feedSource, last_spike_day: '2026-03-09', consecutive_spike_days: 4, spike_event_day: '2026-03-09', chronic_event_day: '2026-03-09', chronic_paused_at: at(9, '16:00:00') },
      { ...watch, dimension: 'tag', key: 'pricing', last_spike_day: '2026-03-08', consecutive_spike_days: 1, paused_at: at(8, '16:00:00') },
      { ...watch, dimension: 'assignee', key: IDS.admin, chronic_acked_at: at(8, '17:00:00') },
    ],
  },
  set: { cost_guard_state: { '1': { closed_through_day: '2026-03-09' } } },
  // 0012 moved the spike state kept on memory and task rows (by 0011) into cost_watch.
  derived: (from) => {
    const rows: FixtureRow[] = [];
    for (const m of from.memory ?? []) {
      if (Number(m.consecutive_spike_days) > 0 || m.cost_spike_acked_at !== null || m.chronic_acked_at !== null) {
        const acked = m.cost_spike_acked_at as string | null;
        rows.push({ ...watch, dimension: 'memory', key: m.id, consecutive_spike_days: m.consecutive_spike_days, spike_acked_at: acked, spike_ack_day: acked?.slice(0, 10) ?? null, chronic_acked_at: m.chronic_acked_at });
      }
    }
    for (const t of from.tasks ?? []) if (t.spike_paused_at) rows.push({ ...watch, dimension: 'task', key: t.id, paused_at: t.spike_paused_at });
    return { cost_watch: rows };
  },
};
