import type { ReactNode } from 'react';
import type { Tone } from '../format';

/** A small status pill in one of the theme's tones. Also used by the Signals and Integrations views. */
export function Badge({ tone = 'neutral', title, children }: { tone?: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`badge${tone === 'neutral' ? '' : ` badge--${tone}`}`} title={title}>
      {children}
    </span>
  );
}
