import { IDS } from './ids';
import { at, fid, type VersionFixture } from './types';

export const fixture: VersionFixture = {
  rows: {
    users: [{ id: fid('usr', 4), name: 'Rita Removed', email: 'rita@example.com', role: 'viewer', created_at: at(2, '09:00:00') }],
    invites: [{ id: fid('inv', 1), email: 'new.hire@example.com', role: 'editor', invited_by_user_id: IDS.owner, created_at: at(7, '09:00:00') }],
    task_templates: [
      {
        id: fid('tpl', 1),
        label: 'Competitor brief',
        emoji: '🎯',
        hint: 'When a competitor moves',
        title: 'Brief: competitor move',
        summary: 'What changed, who it affects, our answer.',
        goal: 'A decision by Friday',
        kind: 'research',
        deliverable_type: 'brief',
        priority: 'high',
        tags: '["competitors"]',
        usage_count: 4,
        last_used_at: at(8, '09:00:00'),
        created_by_user_id: IDS.owner,
        created_at: at(3, '09:00:00'),
        updated_at: at(8, '09:00:00'),
      },
    ],
    shared_saved_searches: [{ id: fid('svs', 1), name: 'Pricing signals', query: 'pricing', created_by_user_id: IDS.admin, created_at: at(6, '09:00:00') }],
  },
  set: {
    users: { [IDS.editor]: { availability: 'away' }, [fid('usr', 4)]: { removed_at: at(8, '12:00:00') } },
  },
};
