/**
 * Pure rules of memory. The spec describes memory as facts, decisions, preferences and lessons and
 * leaves the allowed kinds open ("not shown"); Desk fixes them as this enum.
 */
export const MEMORY_KINDS = ['fact', 'decision', 'preference', 'lesson'] as const;
/** What a memory entry records: a fact, a decision, a preference or a lesson. */
export type MemoryKind = 'fact' | 'decision' | 'preference' | 'lesson';

/** Entries at or above this importance are exempt from stale and spike lists. */
export const EXEMPT_IMPORTANCE = 9;
