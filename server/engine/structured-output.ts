export { type StructuredOutputMode, STRUCTURED_OUTPUT_MODES } from '../core/vocabulary';
