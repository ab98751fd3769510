import type { IntRange } from '../workspace/rules';

/** GET /changelog `limit`: 1-100, default 20 (the public document states the default; the cap is ours). */
export const CHANGELOG_LIMIT: IntRange & { default: number } = { min: 1, max: 100, default: 20 };
/** `sinceRev`: a rev number, 0 (everything) up to this bound. */
export const SINCE_REV: IntRange = { min: 0, max: 1_000_000 };
/** GET /changelog/cadence and /changelog/peak-week `days`: 1-365, default 90. */
export const CADENCE_DAYS: IntRange & { default: number } = { min: 1, max: 365, default: 90 };
/** Weekly buckets the trend compares: the newest two against the two before. */
export const TREND_WEEKS = 4;
/** |delta| at or above this moves the verb off Steady (one release either way is noise). */
export const TREND_THRESHOLD = 2;
/** Sample rev labels a per-day bucket carries. */
export const SAMPLE_REVS_PER_DAY = 3;
/** Weeks listed in topWeeks. */
export const TOP_WEEKS = 3;
/** The trailing windows of a day's historicalTrajectory, in days. */
export const TRAJECTORY_WINDOWS = [30, 90] as const;

export const TREND_VERBS = ['Accelerating', 'Steady', 'Cooling', '—'] as const;
export type TrendVerb = (typeof TREND_VERBS)[number];
