/**
 * Messages a person reads (error bodies, Test connection, run failures) are sentences: a capital
 * first letter and closing punctuation. Applied where a message leaves the desk, so a rule's
 * fragment ("must be at most 80 characters") and a provider's bare text still read as one.
 */

const CLOSING = /[.!?…]$/;

/** `text` as a sentence: first letter capitalised (when it is a lower-case letter), ending in `.`, `!`, `?` or `…`. */
export function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return t;
  const first = t[0];
  const head = first.toLowerCase() === first && first.toUpperCase() !== first ? first.toUpperCase() + t.slice(1) : t;
  return CLOSING.test(head) ? head : `${head}.`;
}
