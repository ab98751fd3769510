import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * When this browser last opened Home, kept in localStorage (UI state: each window has its own
 * "last visit"). Home asks what's new since the visit before this one, and records this one, so
 * the next visit starts from it. A visit is a browser session (a tab, the desktop window): a reload
 * or a return to Home within it keeps the visit's "since" (sessionStorage), where it used to start
 * again from the time recorded a moment before ("Since just now").
 */
interface HomeVisitState {
  /** ISO time of the previous visit; null before the first (what's new then covers the last 24 hours). */
  lastVisitAt: string | null;
  recordVisit: (at: string) => void;
}

export const HOME_VISIT_STORAGE_KEY = 'desk.home.lastVisit';

export const useHomeVisit = create<HomeVisitState>()(
  persist(
    (set) => ({
      lastVisitAt: null,
      recordVisit: (at) => set({ lastVisitAt: at }),
    }),
    { name: HOME_VISIT_STORAGE_KEY, storage: createJSONStorage(() => window.localStorage), partialize: (s) => ({ lastVisitAt: s.lastVisitAt }) },
  ),
);

/** This session's "since", kept across reloads of the tab; an empty string: the first visit (the last 24 hours). */
export const HOME_VISIT_SESSION_KEY = 'desk.home.visitSince';

/**
 * What's new starts here for this visit: the time held for this session, or, on the session's first
 * Home, the previous visit (a stored time after `now`, from a clock that moved back, counts as none).
 */
export function sinceForThisVisit(now: Date): string | null {
  const held = window.sessionStorage.getItem(HOME_VISIT_SESSION_KEY);
  if (held !== null) return held === '' ? null : held;
  const last = useHomeVisit.getState().lastVisitAt;
  const since = last !== null && Date.parse(last) <= now.getTime() ? last : null;
  window.sessionStorage.setItem(HOME_VISIT_SESSION_KEY, since ?? '');
  return since;
}
