import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../domain/signals/signal-store';
import { MAX_DETAIL_LENGTH, MAX_TITLE_LENGTH } from '../domain/signals/signal-rules';
import { MAX_BULK_IDS, MAX_URL_LENGTH } from '../core/input';
import { RELAY_URL_MAX_LENGTH } from '../domain/relay/relay-settings';
import {
  MAX_KEYWORDS,
  MAX_LABEL_CHARS,
  MAX_NOTES_CHARS,
  MAX_POLL_INTERVAL,
  MIN_POLL_INTERVAL,
  SOURCE_STATUS_CHANGES,
  SOURCE_STATUSES,
  SOURCE_TYPES,
} from '../domain/sources/rules';
import { BULK_ACTIONS } from '../domain/sources/source-bulk';

/**
 * Where the OpenAPI document repeats a domain rule: `at` is `Schema.property[.property]` in
 * components.schemas (array items are followed through). bounds.test.ts checks each row; an area
 * adds a row for each bound or enum its controllers document.
 */
export interface DocumentedRule {
  at: string;
  enum?: readonly string[];
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
  // sources
  { at: 'SourceType', enum: SOURCE_TYPES },
  { at: 'SourceStatus', enum: SOURCE_STATUSES },
  { at: 'SourceStatusChange', enum: SOURCE_STATUS_CHANGES },
  { at: 'BulkAction', enum: BULK_ACTIONS },
  { at: 'CreateSourceBody.label', minLength: 1, maxLength: MAX_LABEL_CHARS },
  { at: 'CreateSourceBody.url', maxLength: MAX_URL_LENGTH },
  { at: 'CreateSourceBody.notes', maxLength: MAX_NOTES_CHARS },
  { at: 'CreateSourceBody.pollIntervalMinutes', minimum: MIN_POLL_INTERVAL, maximum: MAX_POLL_INTERVAL },
  { at: 'CreateSourceBody.includeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'CreateSourceBody.excludeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'SourcePatchBody.label', minLength: 1, maxLength: MAX_LABEL_CHARS },
  { at: 'SourcePatchBody.pollIntervalMinutes', minimum: MIN_POLL_INTERVAL, maximum: MAX_POLL_INTERVAL },
  { at: 'KeywordsBody.includeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'KeywordsBody.excludeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'PreviewBody.url', maxLength: MAX_URL_LENGTH },
  { at: 'BulkBody.sourceIds', minItems: 1, maxItems: MAX_BULK_IDS },
  { at: 'BulkCadenceBody.pollIntervalMinutes', minimum: MIN_POLL_INTERVAL, maximum: MAX_POLL_INTERVAL },
  { at: 'BulkCadenceBody.sourceIds', minItems: 1, maxItems: MAX_BULK_IDS },
  { at: 'BulkRenameBody.findText', minLength: 1, maxLength: MAX_LABEL_CHARS },
  { at: 'BulkRenameBody.replaceText', maxLength: MAX_LABEL_CHARS },
  { at: 'BulkRenameBody.sourceIds', minItems: 1, maxItems: MAX_BULK_IDS },
  { at: 'SourceIdsBody.sourceIds', minItems: 1, maxItems: MAX_BULK_IDS },
  // integrations
  { at: 'RelayUrlBody.relayUrl', maxLength: RELAY_URL_MAX_LENGTH },
];

