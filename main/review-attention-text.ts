/**
 * What the tray, the dock/taskbar badge and the overdue notification say about the review queue.
 * Pure (no Electron import), so it is tested under Node; main/index.ts only displays it.
 */
import type { LoopState, ReviewAttention } from './desk-protocol';

type Counts = Pick<ReviewAttention, 'ready' | 'watch' | 'overdue'>;

/** Titles are clipped to this many characters in a notification (they run to 200). */
export const NOTIFIED_TITLE_MAX = 60;

/** The review queue's overdue outputs (the UI's filter; /outputs reads `attention` from the URL). */
export const OVERDUE_QUEUE_PATH = '/outputs?attention=overdue';
export const QUEUE_PATH = '/outputs';

export const outputCount = (n: number): string => `${n} output${n === 1 ? '' : 's'}`;

const clip = (title: string): string => {
  const t = title.trim().replace(/\s+/g, ' ');
  return t.length <= NOTIFIED_TITLE_MAX ? t : `${t.slice(0, NOTIFIED_TITLE_MAX - 1).trimEnd()}…`;
};

/** "Desk — Loop: on", led by the overdue count when there is one ("Desk: 3 outputs overdue — Loop: on"). */
export function trayToolTip(loopState: LoopState, attention: Counts | null): string {
  const loop = `Loop: ${loopState}`;
  return attention && attention.overdue > 0 ? `Desk: ${outputCount(attention.overdue)} overdue — ${loop}` : `Desk — ${loop}`;
}

/** The text beside the macOS menu-bar icon: the overdue count, or nothing. */
export function trayTitle(attention: Counts | null): string {
  return attention && attention.overdue > 0 ? String(attention.overdue) : '';
}

/** The dock/taskbar badge: the overdue count (0 clears it). */
export function badgeCount(attention: Counts | null): number {
  return attention?.overdue ?? 0;
}

/** Where the platform shows a menu-bar title (macOS only) and an app badge (macOS dock, Linux Unity launchers). */
export function platformShows(platform: NodeJS.Platform): { trayTitle: boolean; badge: boolean } {
  return { trayTitle: platform === 'darwin', badge: platform === 'darwin' || platform === 'linux' };
}

/** The tray menu's review queue line ("Review queue: 5 waiting, 2 overdue") and what it opens. */
export function queueMenuItem(attention: Counts | null): { label: string; path: string } {
  if (!attention) return { label: 'Review queue', path: QUEUE_PATH };
  if (attention.ready === 0) return { label: 'Review queue: nothing waiting', path: QUEUE_PATH };
  const overdue = attention.overdue > 0 ? `, ${attention.overdue} overdue` : '';
  return { label: `Review queue: ${attention.ready} waiting${overdue}`, path: attention.overdue > 0 ? OVERDUE_QUEUE_PATH : QUEUE_PATH };
}

export interface OverdueNotice {
  title: string;
  body: string;
  /** Opened in the desk window when the notification is clicked. */
  path: string;
}

/**
 * The notification for outputs that just crossed into overdue, or null when none did. One output
 * opens itself; several open the queue filtered to overdue.
 */
export function overdueNotice(attention: Pick<ReviewAttention, 'newlyOverdue' | 'newlyOverdueTotal'>): OverdueNotice | null {
  const n = attention.newlyOverdueTotal;
  if (n <= 0) return null;
  const first = attention.newlyOverdue[0];
  if (n === 1) {
    return first
      ? { title: 'An output is overdue for review', body: `“${clip(first.title)}” waits for your decision.`, path: `/outputs/${encodeURIComponent(first.id)}` }
      : { title: 'An output is overdue for review', body: 'Open the review queue to decide it.', path: OVERDUE_QUEUE_PATH };
  }
  const title = `${n} outputs are overdue for review`;
  const body = first ? `“${clip(first.title)}” and ${n - 1} more wait for your decision.` : 'Open the review queue to decide them.';
  return { title, body, path: OVERDUE_QUEUE_PATH };
}

/** DESK_NOTIFICATIONS=off (or 0, false, no) silences the desktop notifications; the tray count stays. */
export function notificationsEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env.DESK_NOTIFICATIONS?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false' || value === 'no');
}
