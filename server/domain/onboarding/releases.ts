import { RELEASES } from '../changelog/releases';

/**
 * Desk's release history, `rev <n>` → ISO date, from the changelog's releases (one table for both):
 * a template's launchDate is the date of its launchRev.
 */
export const RELEASE_DATES: Readonly<Record<string, string>> = Object.fromEntries(RELEASES.map((r) => [`rev ${r.n}`, r.date]));

/** The ISO date of a release; throws for a rev that is not a release (the catalog test keeps every launchRev one). */
export function releaseDate(rev: string): string {
  const date = RELEASE_DATES[rev];
  if (date === undefined) throw new Error(`${rev} is not a Desk release`);
  return date;
}

/** The number of a `rev <n>` label, for ordering. */
export const revNumber = (rev: string): number => Number(rev.slice(4));
