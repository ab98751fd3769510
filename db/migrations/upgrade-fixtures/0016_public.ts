import { IDS } from './ids';
import { at, type VersionFixture } from './types';

export const fixture: VersionFixture = {
  rows: {
    roadmap_votes: [
      { item_key: 'mailbox-source', user_id: IDS.owner, voted_at: at(8, '09:00:00') },
      { item_key: 'mcp-server', user_id: IDS.admin, voted_at: at(9, '09:00:00') },
    ],
    badge_token: [{ id: 1, token: 'bdg_0123456789abcdef0123456789abcdef', issued_at: at(8, '09:00:00') }],
  },
};
