import type { VersionFixture } from './types';

/** The search index: derived from the rows (its backfill and triggers are checked by searching them). */
export const fixture: VersionFixture = {};
