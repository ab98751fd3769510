/**
 * Operator notes that state standing direction ("always …", "never …", "prefer …", "from now on …")
 * outlive their task: the local engine keeps them as preference memory.
 */
import { excerpt } from '../prompt';
import type { EngineNote, MemoryDraft } from '../types';

const STANDING = /\b(always|never|prefers?|preferred|from now on|going forward|in (?:the )?future|as a rule)\b/i;

/** Importance of a preference drawn from an operator note: high, below the exempt band (9+) the operator sets. */
export const PREFERENCE_IMPORTANCE = 7;

/** The sentences of a note that state standing direction, or null when it states none. */
export function standingDirection(text: string): string | null {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && STANDING.test(s));
  return sentences.length === 0 ? null : sentences.join(' ');
}

/** Preference drafts from the notes (deduplicated against `seen`, lowercased content). */
export function preferencesFromNotes(notes: EngineNote[], taskTitle: string, tags: string[], seen: Set<string>): MemoryDraft[] {
  const out: MemoryDraft[] = [];
  for (const n of notes) {
    const direction = standingDirection(n.text);
    if (direction === null) continue;
    const key = direction.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      kind: 'preference',
      title: excerpt(direction, 120),
      content: `${direction}\n\n(From an operator note on the task "${excerpt(taskTitle, 160)}".)`,
      tags: [...tags],
      importance: PREFERENCE_IMPORTANCE,
    });
  }
  return out;
}
