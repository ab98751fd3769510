import type { ReactNode } from 'react';
import { SaveStatus } from './SaveStatus';

/**
 * What sits after a form's input (Field `after`): its submit button, held while the save runs, an
 * optional action that clears the setting (`clear`) or other buttons (`children`), then the save status.
 */
export function SubmitActions({
  mutation,
  label = 'Save',
  secondary = false,
  disabled = false,
  clear,
  children,
}: {
  mutation: { isPending: boolean; isSuccess: boolean; submittedAt: number };
  label?: ReactNode;
  secondary?: boolean;
  /** Also holds the submit button, on top of a running save. */
  disabled?: boolean;
  clear?: { label: string; onClick: () => void } | null;
  children?: ReactNode;
}) {
  return (
    <>
      <button type="submit" className={secondary ? 'button button--secondary' : 'button'} disabled={mutation.isPending || disabled}>
        {label}
      </button>
      {clear ? (
        <button type="button" className="button button--ghost" disabled={mutation.isPending} onClick={clear.onClick}>
          {clear.label}
        </button>
      ) : null}
      {children}
      <SaveStatus mutation={mutation} />
    </>
  );
}
