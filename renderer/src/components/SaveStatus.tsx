import { useEffect, useState } from 'react';

/** Quiet feedback for a mutation: "Saving…" while it runs, "Saved" for a moment after it succeeds. */
export function SaveStatus({ mutation }: { mutation: { isPending: boolean; isSuccess: boolean; submittedAt: number } }) {
  const { isPending, isSuccess, submittedAt } = mutation;
  const [hiddenFor, setHiddenFor] = useState<number | null>(null);
  useEffect(() => {
    if (!isSuccess) return;
    const timer = setTimeout(() => setHiddenFor(submittedAt), 2500);
    return () => clearTimeout(timer);
  }, [isSuccess, submittedAt]);
  const text = isPending ? 'Saving…' : isSuccess && hiddenFor !== submittedAt ? 'Saved' : '';
  return (
    <span className={`save-status${text === 'Saved' ? ' save-status--done' : ''}`} role="status" aria-live="polite">
      {text}
    </span>
  );
}
