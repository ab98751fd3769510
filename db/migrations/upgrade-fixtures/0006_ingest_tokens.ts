import { IDS } from './ids';
import { at, fid, type VersionFixture } from './types';

export const fixture: VersionFixture = {
  rows: {
    ingest_tokens: [
      { id: fid('itk', 1), source_id: IDS.manualSource, label: 'Zapier', token_hash: 'a'.repeat(64), token_hint: 'dsk_in…9f2c', created_at: at(5, '09:00:00'), last_used_at: at(9, '09:00:00'), revoked_at: null },
      { id: fid('itk', 2), source_id: IDS.manualSource, label: 'Old script', token_hash: 'b'.repeat(64), token_hint: 'dsk_in…11aa', created_at: at(5, '10:00:00'), last_used_at: null, revoked_at: at(6, '10:00:00') },
    ],
  },
};
