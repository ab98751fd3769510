import { create } from 'zustand';

/**
 * The one quiet notice of the layout preferences (UI state): a change the desk did not keep (another
 * window changed the same preference first, or the write failed). The shell shows it until dismissed or
 * replaced by the next one.
 */
interface PrefsNoticeState {
  message: string | null;
  show: (message: string) => void;
  dismiss: () => void;
}

export const usePrefsNotice = create<PrefsNoticeState>()((set) => ({
  message: null,
  show: (message) => set({ message }),
  dismiss: () => set({ message: null }),
}));
