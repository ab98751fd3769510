import { useState } from 'react';

/**
 * A destructive button that asks once, in place: the first click swaps it for the question with
 * "confirm" and "Cancel" buttons (no browser dialog, so keyboard and tests see plain buttons).
 * Also used by the Signals page.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  disabled,
  small = true,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  small?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const size = small ? ' button--small' : '';
  if (!asking) {
    return (
      <button type="button" className={`button button--danger-ghost${size}`} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm__question">{question}</span>
      <button
        type="button"
        className={`button button--danger${size}`}
        disabled={disabled}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className={`button button--ghost${size}`} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
