/**
 * Rules of the public roadmap and its votes. Days are UTC calendar days from the injected clock
 * (the public page is read from anywhere, so no workspace timezone applies); a vote counts on the
 * UTC day it was cast and only while it stands (taking it back removes it from every figure).
 */

/** Where an item stands. `in_progress`: being built now; `planned`: next, designed; `exploring`: later, being researched. */
export const ROADMAP_STATUSES = ['in_progress', 'planned', 'exploring'] as const;
export type RoadmapStatus = (typeof ROADMAP_STATUSES)[number];

/** The phases in display order. */
export const ROADMAP_PHASES = ['now', 'next', 'later'] as const;
export type RoadmapPhaseKey = (typeof ROADMAP_PHASES)[number];

/** Days in the per-day vote trend (today included, oldest first). */
export const TREND_DAYS = 14;
/** Days of momentum7d: votes cast in the trailing 7 UTC days, today included. */
export const MOMENTUM_DAYS = 7;
/** Length of mostRequested and mostTrending. */
export const TOP_ITEMS = 5;
/** Longest roadmap item key (a URL segment). */
export const MAX_ITEM_KEY_LENGTH = 60;

/**
 * Cache-Control of GET /roadmap-votes: `no-cache` (stored copies are checked again before use), so a
 * vote shows at once. GET /roadmap-items changes only with a release and uses the public value.
 */
export const ROADMAP_VOTES_CACHE_CONTROL = 'no-cache';
