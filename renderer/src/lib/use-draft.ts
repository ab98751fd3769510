import { useState } from 'react';

/**
 * Local state for a control that edits a server value (by default its text). The draft follows the
 * server value whenever that value changes (a save, a refetch), and is left alone otherwise, so a
 * rejected entry stays visible next to its error.
 */
export function useDraft<T, D = string>(serverValue: T, toDraft: (value: T) => D): [D, (draft: D) => void] {
  const [seen, setSeen] = useState(serverValue);
  const [draft, setDraft] = useState(() => toDraft(serverValue));
  if (!Object.is(seen, serverValue)) {
    setSeen(serverValue);
    setDraft(toDraft(serverValue));
  }
  return [draft, setDraft];
}
