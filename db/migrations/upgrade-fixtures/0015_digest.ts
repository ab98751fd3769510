import { IDS } from './ids';
import { at, fid, type VersionFixture } from './types';

export const fixture: VersionFixture = {
  rows: {
    dashboard_prefs: [
      {
        user_id: IDS.admin,
        collapsed_panels: '["insights"]',
        digest_personal_sections: '["approvals","spend"]',
        collapsed_activity_buckets: '["earlier"]',
        digest_quiet_weekends: 1,
        digest_quiet_hours_start: 22,
        digest_quiet_hours_end: 7,
        panel_order: '["inbox","today","whats-new","insights","reactions"]',
        active_work_sort: 'due',
        cost_panel_columns: '["cost","trend"]',
        cost_panel_order: JSON.stringify({ task: 'name-asc', assignee: 'cost-desc', tag: 'cost-desc', source: 'cost-asc', memory: 'cost-desc' }),
        cost_panel_order_updated_at: JSON.stringify({ task: at(8, '10:00:00'), assignee: null, tag: null, source: at(8, '10:01:00'), memory: null }),
        density: 'compact',
        density_updated_at: at(8, '10:02:00'),
        updated_at: at(8, '10:02:00'),
      },
    ],
    dashboard_comment_filters: [{ user_id: IDS.admin, task_id: IDS.task, q: 'enterprise', author_id: IDS.owner, updated_at: at(8, '10:03:00') }],
    digest_audit: [
      {
        id: fid('dga', 1),
        created_at: at(9, '07:00:05'),
        trigger: 'schedule',
        user_id: IDS.owner,
        recipient_label: 'Olive Owner',
        recipient_email: 'owner@example.com',
        outcome: 'would_send',
        reason: 'ready',
        delivery: 'outbox',
        subject: 'Desk digest for Monday 9 March',
        detail: 'approvals 1, spend $0.04',
      },
      { id: fid('dga', 2), created_at: at(9, '07:00:05'), trigger: 'schedule', user_id: IDS.admin, recipient_label: 'Ada Admin', recipient_email: 'ada@example.com', outcome: 'muted', reason: 'quiet_hours', delivery: null, subject: null, detail: 'quiet hours 22-7' },
    ],
  },
  set: { digest_state: { '1': { last_run_at: at(9, '07:00:05'), last_run_day: '2026-03-09' } } },
};
