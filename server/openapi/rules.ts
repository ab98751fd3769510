import { MAX_BULK_IDS, MAX_ID_LENGTH, MAX_URL_LENGTH } from '../core/input';
import { ACTIVITY_KINDS } from '../domain/catalog/activity-kinds';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency/idempotency';
import { REACTION_EMOJIS } from '../domain/reactions/reactions';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../domain/signals/signal-store';
import { MAX_DETAIL_LENGTH, MAX_EXTERNAL_ID_LENGTH, MAX_TITLE_LENGTH, MAX_WEBHOOK_BATCH } from '../domain/signals/signal-rules';

/**
 * Where the OpenAPI document repeats a domain rule: `at` is `Schema.property[.property]` in
 * components.schemas (array items are followed through). bounds.test.ts checks each row; an area
 * adds a row for each bound or enum its controllers document.
 */
export interface DocumentedRule {
  at: string;
  enum?: readonly string[];
  /** The enum's order carries no meaning (tsoa lists a long union in TypeScript's own order). */
  anyOrder?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export const documentedRules: DocumentedRule[] = [
  { at: 'SignalKind', enum: SIGNAL_KINDS },
  { at: 'SignalPriority', enum: SIGNAL_PRIORITIES },
  { at: 'NewSignalBody.title', minLength: 1, maxLength: MAX_TITLE_LENGTH },
  { at: 'NewSignalBody.detail', maxLength: MAX_DETAIL_LENGTH },
  { at: 'NewSignalBody.sourceUrl', maxLength: MAX_URL_LENGTH },
  { at: 'SignalBulkBody.signalIds', minItems: 1, maxItems: MAX_BULK_IDS },
  { at: 'ReactionEmoji', enum: REACTION_EMOJIS },
  { at: 'ActivityKind', enum: ACTIVITY_KINDS, anyOrder: true },
  // the inbound webhook
  { at: 'InboundSignalItem.title', minLength: 1, maxLength: MAX_TITLE_LENGTH },
  { at: 'InboundSignalItem.detail', maxLength: MAX_DETAIL_LENGTH },
  { at: 'InboundSignalItem.sourceUrl', maxLength: MAX_URL_LENGTH },
  { at: 'InboundSignalItem.externalId', minLength: 1, maxLength: MAX_EXTERNAL_ID_LENGTH },
  { at: 'InboundSignalItem.sourceId', minLength: 1, maxLength: MAX_ID_LENGTH },
  { at: 'InboundSignal.idempotencyKey', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  { at: 'InboundSignalBatch.signals', minItems: 1, maxItems: MAX_WEBHOOK_BATCH },
  { at: 'InboundSignalBatch.idempotencyKey', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
];

