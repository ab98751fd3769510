import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * When this browser last opened Home, kept in localStorage (UI state: each window has its own
 * "last visit"). Home reads it once when it opens, asks what's new since then, and records the
 * new visit, so the next visit starts from this one.
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
