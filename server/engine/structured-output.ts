/**
 * How an OpenAI-compatible server takes a structured answer, best first: a strict JSON schema
 * (`response_format: json_schema`), JSON mode (`response_format: json_object`, the schema in the
 * prompt), or a forced tool call whose arguments follow the schema. Found once per model and base
 * URL, remembered on the workspace (0019), shown in Settings.
 */
export type StructuredOutputMode = 'json_schema' | 'json_object' | 'tools';
export const STRUCTURED_OUTPUT_MODES: readonly StructuredOutputMode[] = ['json_schema', 'json_object', 'tools'];
