import { useState } from 'react';

/**
 * Local text for an input that edits a server value. The draft follows the server value whenever
 * that value changes (a save, a refetch), and is left alone otherwise, so a rejected entry stays
 * visible next to its error.
 */
export function useDraft<T>(serverValue: T, toText: (value: T) => string): [string, (text: string) => void] {
  const [seen, setSeen] = useState(serverValue);
  const [draft, setDraft] = useState(() => toText(serverValue));
  if (!Object.is(seen, serverValue)) {
    setSeen(serverValue);
    setDraft(toText(serverValue));
  }
  return [draft, setDraft];
}
