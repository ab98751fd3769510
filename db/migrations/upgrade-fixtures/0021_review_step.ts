import { IDS } from './ids';
import { at, fid, type VersionFixture } from './types';

/** The operator's edit of the waiting v2: a v3 they wrote, which superseded v2 in the queue. */
export const EDITED_ARTIFACT = fid('art', 3);

export const fixture: VersionFixture = {
  rows: {
    artifacts: [
      {
        id: EDITED_ARTIFACT,
        task_id: IDS.task,
        run_id: null,
        kind: 'brief',
        pinned: 0,
        source_signal_ids: JSON.stringify([IDS.signal]),
        source_memory_ids: JSON.stringify([IDS.memory]),
        parent_artifact_id: IDS.artifactV2,
        version: 3,
        title: 'Brief: usage pricing (v2)',
        content: '## What changed\nUsage pricing with a free tier.\n## Our answer\nSeats, never discounts.',
        status: 'ready',
        public_share_token: null,
        ready_at: at(9, '12:00:00'),
        decided_at: null,
        created_at: at(9, '12:00:00'),
        updated_at: at(9, '12:00:00'),
        author_kind: 'member',
        author_user_id: IDS.admin,
        superseded_at: null,
        superseded_by_id: null,
      },
    ],
  },
  set: {
    artifacts: { [IDS.artifactV2]: { superseded_at: at(9, '12:00:00'), superseded_by_id: EDITED_ARTIFACT } },
    signals: { [IDS.signal]: { published_at: at(3, '18:30:00') } },
    runs: { [IDS.run]: { explanation: 'Grouped 2 signals into 1 task; priorities from what each item says.' } },
  },
};
