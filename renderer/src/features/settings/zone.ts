/** The workspace timezone next to the viewer's: a time picked in the browser is the viewer's local time. */

export function viewerTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const wallClock = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat(undefined, { timeZone, month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

/**
 * "Mar 12, 4:00 PM in Europe/Berlin" when the workspace clock reads differently from the viewer's at
 * that instant; null when both read the same (same zone, or zones that agree then).
 */
export function workspaceTimeNote(iso: string, workspaceZone: string, viewerZone: string = viewerTimezone()): string | null {
  if (Number.isNaN(new Date(iso).getTime())) return null;
  try {
    const there = wallClock(iso, workspaceZone);
    return there === wallClock(iso, viewerZone) ? null : `${there} in ${workspaceZone}`;
  } catch {
    return null; // a zone this browser does not know: nothing to add
  }
}
