import { invalid } from '../../core/errors';
import { checkHttpUrl, checkIdList, MAX_ID_LENGTH } from '../../core/input';
import { defineList } from '../../core/lists';
import { checkIdempotencyKey, idempotencyScope } from '../idempotency/idempotency';
import { isSignalKind, isSignalPriority, SIGNAL_KINDS, SIGNAL_PRIORITIES, type NewSignal, type SignalKind, type SignalPriority } from './signal-store';

/** Pure rules of signals: limits, defaults and input checks shared by the API and the inbound webhook. */

/** GET /signals: 50 by default, at most 200 per page (spec). */
export const SIGNAL_LIST = defineList('ListSignals', 50, 200);
export const MAX_TITLE_LENGTH = 200;
export const MAX_DETAIL_LENGTH = 5000;
export const MAX_WEBHOOK_BATCH = 100;
export const MAX_EXTERNAL_ID_LENGTH = 200;
/** The webhook's idempotency keys (`signals-webhook:<key>`), kept 7 days (the kit's default TTL). */
export const WEBHOOK_IDEMPOTENCY = idempotencyScope('signals-webhook');
/** Inbound signals may leave kind and priority out. */
export const WEBHOOK_DEFAULT_KIND: SignalKind = 'other';
export const WEBHOOK_DEFAULT_PRIORITY: SignalPriority = 'normal';

/** A checked signal, before it is given its origin. */
export type CheckedSignal = Omit<NewSignal, 'origin'>;

export interface SignalInput {
  kind: string;
  priority: string;
  title: string;
  detail: string;
  sourceUrl?: string | null;
}

/**
 * Checks one signal and returns it normalised (title trimmed). `prefix` names the field the way
 * the client sent it, e.g. `signals[3].` inside a webhook batch.
 */
export function checkSignalInput(input: SignalInput, prefix = ''): CheckedSignal {
  const { kind, priority } = input;
  if (!isSignalKind(kind)) {
    throw invalid(`${prefix}kind`, `must be one of ${SIGNAL_KINDS.join(', ')}`);
  }
  if (!isSignalPriority(priority)) {
    throw invalid(`${prefix}priority`, `must be one of ${SIGNAL_PRIORITIES.join(', ')}`);
  }
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  if (title.length < 1 || title.length > MAX_TITLE_LENGTH) {
    throw invalid(`${prefix}title`, `must be 1-${MAX_TITLE_LENGTH} characters and not only spaces`);
  }
  if (typeof input.detail !== 'string' || input.detail.length > MAX_DETAIL_LENGTH) {
    throw invalid(`${prefix}detail`, `must be at most ${MAX_DETAIL_LENGTH} characters`);
  }
  const sourceUrl = input.sourceUrl ?? null;
  if (sourceUrl !== null) checkHttpUrl(`${prefix}sourceUrl`, sourceUrl);
  return {
    kind,
    priority,
    title,
    detail: input.detail,
    sourceUrl,
  };
}

/** 1-50 signal ids; duplicates folded, order kept. */
export function checkBulkIds(ids: string[]): string[] {
  return checkIdList(ids, 'signalIds');
}

export function checkExternalId(field: string, externalId: string): string {
  if (typeof externalId !== 'string' || externalId.length < 1 || externalId.length > MAX_EXTERNAL_ID_LENGTH) {
    throw invalid(field, `must be 1-${MAX_EXTERNAL_ID_LENGTH} characters`);
  }
  return externalId;
}

/**
 * One checked inbound signal, ready for insertSignal(). `sourceId` (optional) names the source it
 * comes from; the caller checks that the source exists.
 */
export type InboundSignalReady = CheckedSignal & { externalId: string | null; sourceId: string | null };

/** A checked inbound webhook delivery. */
export interface InboundDelivery {
  signals: InboundSignalReady[];
  /** Whether the body was a batch `{ signals: [...] }` (field names in errors follow it). */
  batch: boolean;
  /**
   * The delivery's keys: the Idempotency-Key header and/or the body field. Both count when both
   * are sent (a relay sets the header itself while the sender may put its own key in the body).
   */
  idempotencyKeys: string[];
  /** Set when it came through a source's scoped ingest URL: every signal belongs to that source. */
  via?: { tokenId: string; sourceId: string };
}

/**
 * A delivery through a source's scoped ingest URL: its signals belong to that source. A signal may
 * repeat that sourceId; naming another source is a 422 (nothing created): the URL pushes to its
 * source only.
 */
export function scopeDelivery(delivery: InboundDelivery, via: { tokenId: string; sourceId: string }): InboundDelivery {
  const signals = delivery.signals.map((signal, i) => {
    if (signal.sourceId !== null && signal.sourceId !== via.sourceId) {
      throw invalid(delivery.batch ? `signals[${i}].sourceId` : 'sourceId', `must be ${via.sourceId} (the source of this ingest URL) or left out`);
    }
    return { ...signal, sourceId: via.sourceId };
  });
  return { ...delivery, signals, via: { tokenId: via.tokenId, sourceId: via.sourceId } };
}

/** The idempotency scope of a delivery: a scoped URL's keys are its source's own, apart from the workspace URL's. */
export const deliveryIdempotencyScope = (delivery: InboundDelivery) =>
  delivery.via ? idempotencyScope(`${WEBHOOK_IDEMPOTENCY.name}-${delivery.via.sourceId}`) : WEBHOOK_IDEMPOTENCY;

const INBOUND_SIGNAL_FIELDS = ['kind', 'priority', 'title', 'detail', 'sourceUrl', 'externalId', 'sourceId'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function optionalString(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  return value;
}

function readInboundSignal(raw: unknown, prefix: string, extraKeys: string[]): InboundSignalReady {
  if (!isObject(raw)) throw invalid(prefix ? prefix.slice(0, -1) : 'body', 'must be a signal object');
  for (const key of Object.keys(raw)) {
    if (!INBOUND_SIGNAL_FIELDS.includes(key) && !extraKeys.includes(key)) throw invalid(`${prefix}${key}`, 'is not a signal field');
  }
  const title = raw.title;
  if (typeof title !== 'string') throw invalid(`${prefix}title`, 'is required: a string of 1-200 characters');
  const signal = checkSignalInput(
    {
      kind: optionalString(`${prefix}kind`, raw.kind) ?? WEBHOOK_DEFAULT_KIND,
      priority: optionalString(`${prefix}priority`, raw.priority) ?? WEBHOOK_DEFAULT_PRIORITY,
      title,
      detail: optionalString(`${prefix}detail`, raw.detail) ?? '',
      sourceUrl: optionalString(`${prefix}sourceUrl`, raw.sourceUrl) ?? null,
    },
    prefix,
  );
  const externalId = optionalString(`${prefix}externalId`, raw.externalId);
  const sourceId = optionalString(`${prefix}sourceId`, raw.sourceId);
  if (sourceId !== undefined && (sourceId.length < 1 || sourceId.length > MAX_ID_LENGTH)) {
    throw invalid(`${prefix}sourceId`, `must be a source id of 1-${MAX_ID_LENGTH} characters`);
  }
  return {
    ...signal,
    externalId: externalId === undefined ? null : checkExternalId(`${prefix}externalId`, externalId),
    sourceId: sourceId ?? null,
  };
}

/**
 * Reads an inbound webhook body (one signal, or `{ signals: [...] }` with 1-100) and its
 * `Idempotency-Key` header, naming the offending field the way the sender wrote it
 * (`signals[3].title`). Kind defaults to `other`, priority to `normal`, detail to empty.
 */
export function readInboundDelivery(body: unknown, headerKey?: string): InboundDelivery {
  if (!isObject(body)) throw invalid('body', 'must be one signal object or { "signals": [...] }');
  const batch = 'signals' in body;
  let signals: InboundSignalReady[];
  if (batch) {
    for (const key of Object.keys(body)) {
      if (key !== 'signals' && key !== 'idempotencyKey') throw invalid(key, 'is not allowed next to signals');
    }
    const list = body.signals;
    if (!Array.isArray(list) || list.length < 1 || list.length > MAX_WEBHOOK_BATCH) {
      throw invalid('signals', `must be an array of 1-${MAX_WEBHOOK_BATCH} signals`);
    }
    signals = list.map((raw, i) => readInboundSignal(raw, `signals[${i}].`, []));
  } else {
    signals = [readInboundSignal(body, '', ['idempotencyKey'])];
  }
  const header = headerKey === undefined ? undefined : checkIdempotencyKey('Idempotency-Key', headerKey);
  const field = optionalString('idempotencyKey', body.idempotencyKey);
  if (field !== undefined) checkIdempotencyKey('idempotencyKey', field);
  const idempotencyKeys = [...new Set([header, field].filter((k): k is string => k !== undefined))];
  return { signals, batch, idempotencyKeys };
}
