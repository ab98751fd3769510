import { at, fid, type VersionFixture } from './types';

export const fixture: VersionFixture = {
  rows: {
    mcp_tokens: [
      { id: fid('mcp', 1), label: 'Claude Desktop', scope: 'write', token_hash: 'c'.repeat(64), token_hint: 'dskm_…Zx9q', created_at: at(8, '09:00:00'), last_used_at: at(9, '15:00:00'), revoked_at: null },
      { id: fid('mcp', 2), label: 'Old laptop', scope: 'read', token_hash: 'd'.repeat(64), token_hint: 'dskm_…Ab12', created_at: at(7, '09:00:00'), last_used_at: null, revoked_at: at(8, '10:00:00') },
    ],
  },
};
