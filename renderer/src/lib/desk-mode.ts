import { create } from 'zustand';

/** The header a desk in rescue mode puts on every answer (server/rescue-desk.ts). */
export const RESCUE_MODE_HEADER = 'X-Desk-Mode';

/** Whether the desk answered as a rescue desk: the app shows the rescue page instead of its routes. */
export const useRescueMode = create<{ active: boolean; enter(): void; leave(): void }>()((set) => ({
  active: false,
  enter: () => set({ active: true }),
  leave: () => set({ active: false }),
}));

/** Counts 507 answers, so the disk-full banner looks again at once rather than at its next poll. */
export const useDiskFullReports = create<{ count: number; report(): void }>()((set) => ({
  count: 0,
  report: () => set((s) => ({ count: s.count + 1 })),
}));
