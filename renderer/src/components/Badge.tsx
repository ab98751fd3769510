import type { ReactNode } from 'react';

/** The theme's tones for status pills. */
export type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

/** A small status pill in one of the theme's tones. */
export function Badge({ tone = 'neutral', title, children }: { tone?: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`badge${tone === 'neutral' ? '' : ` badge--${tone}`}`} title={title}>
      {children}
    </span>
  );
}
