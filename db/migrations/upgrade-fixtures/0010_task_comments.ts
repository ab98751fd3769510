import { IDS } from './ids';
import { at, fid, type VersionFixture } from './types';

export const fixture: VersionFixture = {
  rows: {
    task_comments: [
      { id: IDS.comment, task_id: IDS.task, parent_comment_id: null, author_user_id: IDS.owner, text: '@Ada can you check the enterprise tier?', created_at: at(7, '09:00:00') },
      { id: IDS.reply, task_id: IDS.task, parent_comment_id: IDS.comment, author_user_id: IDS.admin, text: 'On it, numbers by Thursday', created_at: at(7, '10:00:00') },
    ],
    comment_reactions: [{ comment_id: IDS.reply, user_id: IDS.owner, emoji: '👍', created_at: at(7, '11:00:00') }],
    comment_mentions: [
      { id: fid('mnt', 1), comment_id: IDS.comment, user_id: IDS.admin, acknowledged_at: null, created_at: at(7, '09:00:00') },
      { id: fid('mnt', 2), comment_id: IDS.reply, user_id: IDS.owner, acknowledged_at: at(7, '12:00:00'), created_at: at(7, '10:00:00') },
    ],
  },
};
