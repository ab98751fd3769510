import type { VersionFixture } from './types';

/** An index only: no new rows or columns. */
export const fixture: VersionFixture = {};
