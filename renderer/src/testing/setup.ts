import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type { StoreApi } from 'zustand';
import { useHomeVisit } from '../features/home/visit-store';
import { useDecisionHolds } from '../features/outputs/decision-holds';
import { useLiveStream } from '../features/live/live-store';
import { useAppliedTemplate } from '../features/onboarding/applied-store';
import { usePrefsNotice } from '../features/preferences/notice-store';
import { useAuth } from '../lib/auth';
import { useDiskFullReports, useRescueMode } from '../lib/desk-mode';
import { resetClock } from '../lib/clock';

// findBy*/waitFor give up after 1 s by default: the first render of a route (module load, chart
// library) can take several seconds on a busy 2-core machine. A real failure still fails, later.
configure({ asyncUtilTimeout: 15_000 });

/**
 * Test files share one module graph per worker (vitest.config.ts, renderer project, isolate: false),
 * so the UI's module-level state is put back before and after every test: the zustand stores, the
 * clock, web storage and the DOM. Before as well as after, because a write chain a test left running
 * (the preferences' queue) can set a notice after its test ended.
 */
const reset = <T,>(store: StoreApi<T>) => store.setState(store.getInitialState(), true);

function resetUiState(): void {
  reset(useAuth);
  reset(usePrefsNotice);
  reset(useHomeVisit);
  reset(useAppliedTemplate);
  reset(useRescueMode);
  reset(useDiskFullReports);
  reset(useDecisionHolds);
  reset(useLiveStream);
  window.localStorage.clear();
  window.sessionStorage.clear();
  resetClock();
}

beforeEach(resetUiState);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetUiState();
});
