import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../app/providers';

/** Renders UI inside the app's providers, with a fresh query client so no test sees another's cache. */
export function renderWithApp(ui: ReactElement) {
  return render(<AppProviders client={createQueryClient()}>{ui}</AppProviders>);
}

/** After each test of the file: unmount what it rendered and restore the globals it replaced (fetch). */
export function cleanUpAfterEach() {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
