/**
 * Desk's release history as the changelog publishes it (`rev <n>` and its ISO date). A template's
 * launchDate is the date of its launchRev; the changelog area keeps the same dates for its releases.
 */
export const RELEASE_DATES: Readonly<Record<string, string>> = {
  'rev 1': '2026-01-06',
  'rev 2': '2026-01-14',
  'rev 3': '2026-01-21',
  'rev 4': '2026-01-30',
  'rev 5': '2026-02-01',
  'rev 6': '2026-02-06',
  'rev 7': '2026-02-12',
  'rev 8': '2026-02-26',
  'rev 9': '2026-03-04',
  'rev 10': '2026-03-12',
  'rev 11': '2026-03-15',
  'rev 12': '2026-03-20',
  'rev 13': '2026-04-03',
  'rev 14': '2026-04-10',
  'rev 15': '2026-04-15',
  'rev 16': '2026-04-21',
  'rev 17': '2026-04-30',
  'rev 18': '2026-05-09',
  'rev 19': '2026-05-15',
  'rev 20': '2026-05-22',
  'rev 21': '2026-05-28',
  'rev 22': '2026-06-11',
  'rev 23': '2026-06-20',
  'rev 24': '2026-06-25',
  'rev 25': '2026-06-28',
  'rev 26': '2026-07-04',
  'rev 27': '2026-07-11',
  'rev 28': '2026-07-13',
  'rev 29': '2026-07-15',
  'rev 30': '2026-07-18',
  'rev 31': '2026-07-23',
  'rev 32': '2026-07-26',
  'rev 33': '2026-07-29',
  'rev 34': '2026-08-07',
  'rev 35': '2026-08-12',
  'rev 36': '2026-08-19',
  'rev 37': '2026-08-24',
  'rev 38': '2026-09-07',
  'rev 39': '2026-09-14',
  'rev 40': '2026-09-21',
  'rev 41': '2026-09-30',
  'rev 42': '2026-10-07',
  'rev 43': '2026-10-21',
  'rev 44': '2026-10-27',
  'rev 45': '2026-10-30',
  'rev 46': '2026-11-06',
  'rev 47': '2026-11-20',
  'rev 48': '2026-11-23',
};

/** The ISO date of a release; throws for a rev that is not a release (the catalog test keeps every launchRev one). */
export function releaseDate(rev: string): string {
  const date = RELEASE_DATES[rev];
  if (date === undefined) throw new Error(`${rev} is not a Desk release`);
  return date;
}

/** The number of a `rev <n>` label, for ordering. */
export const revNumber = (rev: string): number => Number(rev.slice(4));
