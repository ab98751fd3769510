import { monotonicFactory } from 'ulid';
import type { Clock } from './clock';

const ulid = monotonicFactory();

/** Opaque, prefixed, time-sortable id, e.g. `src_01J...`. Time comes from the injected clock. */
export function newId(prefix: string, clock: Clock): string {
  return `${prefix}_${ulid(clock.now().getTime())}`;
}
