import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../api/client';
import { now as clockNow } from '../lib/clock';
import { formatDateTime, fromDatetimeLocal, toDatetimeLocal } from '../lib/format';
import { DAY_MS } from '../lib/time';
import { Field } from './Field';
import { FormError, fieldError } from './FormError';
import { SubmitActions } from './SubmitActions';

/** The most a scheduled pause may reach ahead, for the loop and for sources alike (the API refuses more). */
export const MAX_PAUSE_DAYS = 14;

/**
 * "Pause until" as one form, used by the workspace loop (Settings) and by each feed (Sources): a notice
 * while paused with a button that lifts the pause, and a local-time picker offered from now to
 * `MAX_PAUSE_DAYS` ahead. The picker's own error ("Choose a date and time") shows first, else the API's
 * message for `field`.
 */
export function PauseUntilForm({
  pausedUntilAt,
  pausedIndefinitely = false,
  zoneNote,
  hint,
  field,
  resumeLabel,
  mutation,
  onChange,
  secondary = false,
  children,
}: {
  /** The scheduled end of the pause; null when none is set. */
  pausedUntilAt: string | null;
  /** Paused with no end (a source paused by hand): the notice says so and offers to resume. */
  pausedIndefinitely?: boolean;
  /** Said after the time in the notice, e.g. the time in the workspace timezone. */
  zoneNote?: string | null;
  hint: ReactNode;
  /** The API's name of the field, for its error message. */
  field: string;
  resumeLabel: string;
  mutation: { isPending: boolean; isSuccess: boolean; submittedAt: number; error: ApiError | null };
  /** Sends the new end (ISO) or null to lift the pause; `done` runs after a successful save. */
  onChange: (pausedUntilAt: string | null, done?: () => void) => void;
  secondary?: boolean;
  /** More buttons after the submit button (e.g. "Pause indefinitely"). */
  children?: ReactNode;
}) {
  const [value, setValue] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const iso = fromDatetimeLocal(value);
    setLocalError(iso ? null : 'Choose a date and time');
    if (iso) onChange(iso, () => setValue(''));
  };
  const resume = () => {
    setLocalError(null);
    onChange(null);
  };
  const at = clockNow();
  return (
    <div className="stack stack--tight">
      {pausedUntilAt || pausedIndefinitely ? (
        <div className="notice notice--info">
          <span>
            {pausedUntilAt ? (
              <>
                Paused. Resumes by itself at <strong>{formatDateTime(pausedUntilAt, true)}</strong>
                {zoneNote ? ` (${zoneNote})` : ''}.
              </>
            ) : (
              <>Paused until you resume it.</>
            )}
          </span>
          <button type="button" className="button button--secondary button--small" onClick={resume} disabled={mutation.isPending}>
            {resumeLabel}
          </button>
        </div>
      ) : null}
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          label="Pause until"
          hint={hint}
          error={localError ?? fieldError(mutation.error, field)}
          after={
            <SubmitActions mutation={mutation} label={pausedUntilAt ? 'Change' : 'Schedule pause'} secondary={secondary}>
              {children}
            </SubmitActions>
          }
        >
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              className="input"
              value={value}
              min={toDatetimeLocal(at)}
              max={toDatetimeLocal(new Date(at.getTime() + MAX_PAUSE_DAYS * DAY_MS))}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
        </Field>
      </form>
      <FormError error={mutation.error} fields={[field]} />
    </div>
  );
}
