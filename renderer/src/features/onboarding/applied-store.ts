import { create } from 'zustand';
import type { ApplyTemplateResult } from './api';

/** The last template applied in this window, so the page the flow lands on can say what was added (UI state only). */
interface AppliedTemplateState {
  last: ApplyTemplateResult | null;
  record: (result: ApplyTemplateResult) => void;
  dismiss: () => void;
}

export const useAppliedTemplate = create<AppliedTemplateState>((set) => ({
  last: null,
  record: (last) => set({ last }),
  dismiss: () => set({ last: null }),
}));
