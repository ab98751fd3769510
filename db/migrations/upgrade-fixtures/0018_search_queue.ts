import type { VersionFixture } from './types';

/** How the search index is kept: no rows or columns of its own (checked by searching upgraded rows). */
export const fixture: VersionFixture = {};
