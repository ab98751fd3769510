import { describe, expect, it } from 'vitest';
import {
  badgeCount,
  NOTIFIED_TITLE_MAX,
  notificationsEnabled,
  overdueNotice,
  platformShows,
  queueMenuItem,
  trayTitle,
  trayToolTip,
} from './review-attention-text';

const counts = (ready: number, watch: number, overdue: number) => ({ ready, watch, overdue });

describe('tray and badge texts', () => {
  it('the tooltip leads with the overdue count, in the right plural, and keeps the loop state', () => {
    expect(trayToolTip('on', null)).toBe('Desk — Loop: on');
    expect(trayToolTip('paused', counts(4, 2, 0))).toBe('Desk — Loop: paused');
    expect(trayToolTip('on', counts(4, 0, 1))).toBe('Desk: 1 output overdue — Loop: on');
    expect(trayToolTip('off', counts(9, 1, 3))).toBe('Desk: 3 outputs overdue — Loop: off');
  });

  it('the macOS title and the badge show the overdue count, and clear at zero', () => {
    expect(trayTitle(counts(5, 1, 3))).toBe('3');
    expect(trayTitle(counts(5, 1, 0))).toBe('');
    expect(trayTitle(null)).toBe('');
    expect(badgeCount(counts(5, 1, 3))).toBe(3);
    expect(badgeCount(counts(5, 1, 0))).toBe(0);
    expect(badgeCount(null)).toBe(0);
  });

  it('only macOS has a menu-bar title; macOS and Linux take a badge count', () => {
    expect(platformShows('darwin')).toEqual({ trayTitle: true, badge: true });
    expect(platformShows('linux')).toEqual({ trayTitle: false, badge: true });
    expect(platformShows('win32')).toEqual({ trayTitle: false, badge: false });
  });

  it('the tray menu names the queue and opens the overdue filter when something is overdue', () => {
    expect(queueMenuItem(null)).toEqual({ label: 'Review queue', path: '/outputs' });
    expect(queueMenuItem(counts(0, 0, 0))).toEqual({ label: 'Review queue: nothing waiting', path: '/outputs' });
    expect(queueMenuItem(counts(5, 2, 0))).toEqual({ label: 'Review queue: 5 waiting', path: '/outputs' });
    expect(queueMenuItem(counts(5, 1, 2))).toEqual({ label: 'Review queue: 5 waiting, 2 overdue', path: '/outputs?attention=overdue' });
  });
});

describe('the overdue notification', () => {
  it('says nothing when nothing newly crossed into overdue', () => {
    expect(overdueNotice({ newlyOverdue: [], newlyOverdueTotal: 0 })).toBeNull();
  });

  it('one output: names it and opens it', () => {
    expect(overdueNotice({ newlyOverdue: [{ id: 'art_01', title: 'Quarterly churn report' }], newlyOverdueTotal: 1 })).toEqual({
      title: 'An output is overdue for review',
      body: '“Quarterly churn report” waits for your decision.',
      path: '/outputs/art_01',
    });
  });

  it('several: counts them, names the first, and opens the queue filtered to overdue', () => {
    const notice = overdueNotice({
      newlyOverdue: [
        { id: 'art_01', title: 'Quarterly churn report' },
        { id: 'art_02', title: 'Reply to Ann' },
      ],
      newlyOverdueTotal: 2,
    });
    expect(notice).toEqual({ title: '2 outputs are overdue for review', body: '“Quarterly churn report” and 1 more wait for your decision.', path: '/outputs?attention=overdue' });
    // The list is capped; the total is not.
    expect(overdueNotice({ newlyOverdue: [{ id: 'art_01', title: 'A' }], newlyOverdueTotal: 14 })?.body).toBe('“A” and 13 more wait for your decision.');
  });

  it('clips a long title and folds its whitespace', () => {
    const title = `Weekly   digest\n${'x'.repeat(200)}`;
    const body = overdueNotice({ newlyOverdue: [{ id: 'art_01', title }], newlyOverdueTotal: 1 })!.body;
    const quoted = body.slice(1, body.indexOf('”'));
    expect(quoted).toHaveLength(NOTIFIED_TITLE_MAX);
    expect(quoted.startsWith('Weekly digest x')).toBe(true);
    expect(quoted.endsWith('…')).toBe(true);
  });

  it('outputs decided before their titles were read: still counted, the queue opens', () => {
    expect(overdueNotice({ newlyOverdue: [], newlyOverdueTotal: 1 })).toEqual({ title: 'An output is overdue for review', body: 'Open the review queue to decide it.', path: '/outputs?attention=overdue' });
    expect(overdueNotice({ newlyOverdue: [], newlyOverdueTotal: 3 })?.body).toBe('Open the review queue to decide them.');
  });

  it('an id is escaped in the path it opens', () => {
    expect(overdueNotice({ newlyOverdue: [{ id: 'art/../x', title: 'T' }], newlyOverdueTotal: 1 })?.path).toBe('/outputs/art%2F..%2Fx');
  });

  it('DESK_NOTIFICATIONS=off silences them; anything else (or unset) keeps them', () => {
    expect(notificationsEnabled({})).toBe(true);
    expect(notificationsEnabled({ DESK_NOTIFICATIONS: 'on' })).toBe(true);
    for (const off of ['off', 'OFF', ' 0 ', 'false', 'no']) expect(notificationsEnabled({ DESK_NOTIFICATIONS: off })).toBe(false);
  });
});
