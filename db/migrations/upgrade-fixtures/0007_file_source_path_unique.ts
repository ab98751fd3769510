import path from 'node:path';
import { IDS } from './ids';
import type { VersionFixture } from './types';

export const fixture: VersionFixture = {
  // The file's path in one spelling, as the desk and the migration write it.
  set: { sources: { [IDS.fileSource]: { file_path: path.resolve('/data/crm-export.csv') } } },
};
