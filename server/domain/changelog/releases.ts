/**
 * Desk's own release history, oldest first: the data behind /api/v1/changelog and the /changelog
 * pages. The revs and dates are fixed (the onboarding templates' `launchRev` values point at them,
 * and a test checks every one is a release here); titles and highlights tell how the product grew.
 */

import { RELEASES_1_24 } from './releases-1-24';
import { RELEASES_25_48 } from './releases-25-48';

export interface ReleaseHighlight {
  label: string;
  description: string;
}

export interface ReleaseRecord {
  /** The release number; served as the label `rev <n>`. */
  n: number;
  /** ISO date (UTC) the release shipped. */
  date: string;
  title: string;
  highlights: ReleaseHighlight[];
}

/** Oldest first (the data is split in two files by rev). */
export const RELEASES: readonly ReleaseRecord[] = [...RELEASES_1_24, ...RELEASES_25_48];

/** The date of a release by its label (`rev 12`), or null when no release has it: for the templates' launchDate. */
export function releaseDateOf(rev: string): string | null {
  const match = /^rev (\d+)$/.exec(rev);
  return match === null ? null : (RELEASES.find((r) => r.n === Number(match[1]))?.date ?? null);
}
