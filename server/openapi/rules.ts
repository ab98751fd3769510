import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../domain/signals/signal-store';
import { MAX_DETAIL_LENGTH, MAX_TITLE_LENGTH } from '../domain/signals/signal-rules';

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
];

