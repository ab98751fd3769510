import type { Trx } from '../../../db/transactions';
import { DAY_MS, type Clock } from '../../core/clock';
import { invalid } from '../../core/errors';

/**
 * Idempotent POSTs: a client that retries a request with the same `Idempotency-Key` gets the
 * first response back and nothing is done twice. The first response is stored under each key,
 * per scope (one endpoint's keys never collide with another's), for `ttlMs`; an expired key
 * counts as new. Runs inside the caller's transaction, so the stored response commits or rolls
 * back with the change it describes.
 */
export interface IdempotencyScope {
  /** Namespace of the keys, e.g. `signals-webhook`. */
  name: string;
  ttlMs: number;
}

export const DEFAULT_IDEMPOTENCY_TTL_MS = 7 * DAY_MS;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export function idempotencyScope(name: string, ttlMs = DEFAULT_IDEMPOTENCY_TTL_MS): IdempotencyScope {
  return { name, ttlMs };
}

const hasControlCharacter = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** An Idempotency-Key as sent (header or body field): 1-200 characters without control characters (UUIDs, delivery ids, hashes...). */
export function checkIdempotencyKey(field: string, key: unknown): string {
  if (typeof key !== 'string' || key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || hasControlCharacter(key)) {
    throw invalid(field, `must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters without control characters`);
  }
  return key;
}

/**
 * Runs `change` once per key set: when any of `keys` is stored in the scope, returns its stored
 * result (`replayed: true`) without running `change`; otherwise runs it and stores its result
 * under every key. With no keys it just runs `change` and touches no key row: keys are only
 * written by keyed requests, so keyed requests sweep their scope's expired ones too (an unkeyed
 * webhook delivery, the common case, pays no idempotency query).
 */
export async function once<T>(
  trx: Trx,
  clock: Clock,
  scope: IdempotencyScope,
  keys: readonly string[],
  change: () => Promise<T>,
): Promise<{ replayed: boolean; result: T }> {
  if (keys.length === 0) return { replayed: false, result: await change() };
  const now = clock.now();
  const scoped = keys.map((k) => `${scope.name}:${k}`);
  // Expired keys go first, so a key older than the TTL counts as new (idempotency_created index).
  await trx
    .deleteFrom('idempotencyKeys')
    .where('key', 'like', `${scope.name}:%`)
    .where('createdAt', '<', new Date(now.getTime() - scope.ttlMs).toISOString())
    .execute();
  const stored = await trx.selectFrom('idempotencyKeys').select('response').where('key', 'in', scoped).orderBy('createdAt').executeTakeFirst();
  if (stored) return { replayed: true, result: JSON.parse(stored.response) as T };
  const result = await change();
  const response = JSON.stringify(result);
  for (const key of scoped) {
    await trx.insertInto('idempotencyKeys').values({ key, response, createdAt: now.toISOString() }).execute();
  }
  return { replayed: false, result };
}
