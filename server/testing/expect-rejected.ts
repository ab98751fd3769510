import { expect } from 'vitest';
import type { Db } from '../../db/connection';
import { dbFingerprint, writeMark } from './db-fingerprint';
import type { ApiResponse, TestDesk } from './desk';

/** A request for `desk.api()`, or any call that answers like it (e.g. a webhook push without the bearer token). */
export type RejectedRequest = { method: string; path: string; body?: unknown; token?: string | null } | (() => Promise<ApiResponse>);

export interface RejectExpectation {
  /** Expected HTTP status; default 422. */
  status?: number;
  /** A field the error details must name (`details[].field`), e.g. `label` or `tags[1]`. */
  field?: string;
  /** The expected `error` code, e.g. `validation_failed` or `source_exists`. */
  error?: string;
}

function describeRequest(request: RejectedRequest): string {
  return typeof request === 'function' ? 'request' : `${request.method} ${request.path} ${JSON.stringify(request.body)}`;
}

/**
 * Sends a request that Desk must refuse, and asserts the refusal and that it changed nothing:
 * the status (422 unless told), the one error shape (`error` and `message` strings), the field
 * named in `details` and the error code when given, and the same rows in every table before
 * and after (dbFingerprint; read again only when a row was written since: writeMark). Returns
 * the response for further checks.
 */
export async function expectRejectedUnchanged(
  desk: { api: TestDesk['api']; services: { db: Db } },
  request: RejectedRequest,
  expected: RejectExpectation = {},
): Promise<ApiResponse> {
  const db = desk.services.db;
  const mark = await writeMark(db);
  const before = await dbFingerprint(db);
  const res = typeof request === 'function' ? await request() : await desk.api(request.method, request.path, request.body, request.token);
  const what = `${describeRequest(request)} -> ${res.status} ${JSON.stringify(res.body)}`;
  expect(res.status, what).toBe(expected.status ?? 422);
  expect(typeof res.body?.error, what).toBe('string');
  expect(typeof res.body?.message, what).toBe('string');
  if (expected.error !== undefined) expect(res.body.error, what).toBe(expected.error);
  if (expected.field !== undefined) {
    expect(Array.isArray(res.body.details), what).toBe(true);
    expect(res.body.details.map((d: { field: string }) => d.field), what).toContain(expected.field);
  }
  // No row written since `mark`: the rows are the ones `before` holds.
  if ((await writeMark(db)) !== mark) expect(await dbFingerprint(db), `${what} changed the database`).toEqual(before);
  return res;
}
