import { IDS, FIXTURE_TOKEN } from './ids';
import { at, fid, type VersionFixture } from './types';

export const fixture: VersionFixture = {
  unset: { 'workspace.relay_url': 'a relay URL makes the desk connect to it at start; the relay has tests of its own' },
  rows: {
    workspace: [
      {
        id: IDS.workspace,
        name: 'Upgrade Desk',
        owner_user_id: IDS.owner,
        ingest_token: FIXTURE_TOKEN,
        plan: 'pro',
        timezone: 'Europe/Paris',
        loop_state: 'on',
        // A scheduled pause that has ended: the loop runs.
        pause_until_at: at(8, '18:00:00'),
        loop_interval_minutes: 45,
        watch_hours: 36,
        overdue_hours: 60,
        focus_tags: '["launch","pricing"]',
        stale_task_auto_archive_days: 30,
        stale_memory_auto_archive_days: 90,
        task_cost_spike_action: 'pause',
        source_cost_spike_action: 'none',
        source_chronic_spike_action: 'pause',
        source_chronic_threshold_days: 4,
        tag_cost_spike_action: 'none',
        daily_cost_cap_usd_cents: 500,
        digest_email: 'owner@example.com',
        relay_url: null,
        created_at: at(1, '08:00:00'),
        updated_at: at(2, '08:00:00'),
      },
    ],
    users: [
      { id: IDS.owner, name: 'Olive Owner', email: 'owner@example.com', role: 'owner', created_at: at(1, '08:00:00') },
      { id: IDS.admin, name: 'Ada Admin', email: 'ada@example.com', role: 'admin', created_at: at(1, '10:00:00') },
      { id: IDS.editor, name: 'Eddie Editor', email: null, role: 'editor', created_at: at(1, '11:00:00') },
    ],
    focus_shifts: [
      { id: fid('fcs', 1), tags: '["launch"]', started_at: at(1, '12:00:00') },
      { id: fid('fcs', 2), tags: '["launch","pricing"]', started_at: at(2, '12:00:00') },
    ],
    activity: [
      { id: fid('act', 1), kind: 'workspace.loop_interval', detail: 'Loop interval set to 45 minutes', actor_user_id: IDS.owner, actor_label: 'Olive Owner', entity_type: 'workspace', entity_id: IDS.workspace, created_at: at(2, '08:00:00') },
      { id: fid('act', 2), kind: 'workspace.focus_tags', detail: 'Focus tags set to launch, pricing', actor_user_id: IDS.owner, actor_label: 'Olive Owner', entity_type: null, entity_id: null, created_at: at(2, '12:00:00') },
    ],
    outbox_events: [
      {
        id: fid('evt', 1),
        event: 'workspace.cost_cap_changed',
        payload: JSON.stringify({ id: fid('evt', 1), event: 'workspace.cost_cap_changed', createdAt: at(2, '08:00:00'), data: { dailyCostCapUsdCents: 500, previousDailyCostCapUsdCents: null } }),
        created_at: at(2, '08:00:00'),
        delivered_at: at(2, '08:00:01'),
      },
      {
        id: fid('evt', 2),
        event: 'workspace.loop_state_changed',
        payload: JSON.stringify({ id: fid('evt', 2), event: 'workspace.loop_state_changed', createdAt: at(2, '12:00:00'), data: { loopState: 'on', pauseUntilAt: null } }),
        created_at: at(2, '12:00:00'),
        delivered_at: null,
      },
    ],
    scheduler_jobs: [{ name: 'backups.daily', last_run_at: at(9, '23:00:00'), last_finished_at: at(9, '23:00:02'), last_error: 'disk busy', run_count: 9 }],
  },
};
