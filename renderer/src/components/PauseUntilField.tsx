import { useState, type ReactNode } from 'react';
import { now as clockNow } from '../lib/clock';
import { fromDatetimeLocal, toDatetimeLocal } from '../lib/format';
import { DAY_MS } from '../lib/time';
import { Field } from './Field';

/**
 * What the user typed into a pause-until picker, and the picker's own error. `pick()` gives the chosen
 * instant as ISO, or null after setting "Choose a date and time"; `reset()` empties the picker (after a
 * save), `clearError()` drops the error (when the pause is lifted another way).
 */
export function usePauseUntilDraft() {
  const [value, setValue] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const pick = () => {
    const iso = fromDatetimeLocal(value);
    setLocalError(iso ? null : 'Choose a date and time');
    return iso;
  };
  return { value, setValue, localError, pick, reset: () => setValue(''), clearError: () => setLocalError(null) };
}

/**
 * "Pause until": a date and time in the viewer's local time, offered from now to `maxDays` ahead (the
 * API's limit). Shows the draft's own error first, else the API's message for the field (`error`).
 */
export function PauseUntilField({
  draft,
  maxDays,
  hint,
  error,
  after,
}: {
  draft: ReturnType<typeof usePauseUntilDraft>;
  maxDays: number;
  hint: ReactNode;
  error?: string | null;
  after: ReactNode;
}) {
  const now = clockNow();
  return (
    <Field label="Pause until" hint={hint} error={draft.localError ?? error} after={after}>
      {(control) => (
        <input
          {...control}
          type="datetime-local"
          className="input"
          value={draft.value}
          min={toDatetimeLocal(now)}
          max={toDatetimeLocal(new Date(now.getTime() + maxDays * DAY_MS))}
          onChange={(e) => draft.setValue(e.target.value)}
        />
      )}
    </Field>
  );
}
