/**
 * Asking an OpenAI-compatible server for a structured answer in each of the three ways servers
 * support it (structured-output.ts), and reading the answer back. The cycle and Settings → Test
 * connection (which finds the mode once) share these, so a mode means the same request in both.
 */
import OpenAI from 'openai';
import type { StructuredOutputMode } from '../structured-output';

type Params = Pick<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, 'response_format' | 'tools' | 'tool_choice'>;

/** The request fields that ask for an answer following `schema` in `mode`. */
export function answerFormat(mode: StructuredOutputMode, name: string, schema: Record<string, unknown>): Params {
  if (mode === 'json_schema') return { response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } } };
  if (mode === 'json_object') return { response_format: { type: 'json_object' } };
  return {
    tools: [{ type: 'function', function: { name, description: 'Give your answer as the arguments of this function.', parameters: schema } }],
    tool_choice: { type: 'function', function: { name } },
  };
}

/**
 * The line a prompt needs in the modes where the server does not hold the model to the schema
 * (JSON mode only promises some JSON object): the schema itself, written out.
 */
export function schemaInstruction(mode: StructuredOutputMode, schema: Record<string, unknown>): string | null {
  if (mode === 'json_schema') return null;
  return `Answer with one JSON object that follows this JSON schema exactly (every property present; null where the schema allows it):\n${JSON.stringify(schema)}`;
}

/** The answer's JSON text: the message content, or the forced tool call's arguments. */
export function answerText(mode: StructuredOutputMode, choice: OpenAI.Chat.Completions.ChatCompletion.Choice): string {
  if (mode === 'tools') {
    const call = choice.message.tool_calls?.find((c) => c.type === 'function');
    if (call && call.type === 'function') return call.function.arguments;
  }
  return choice.message.content ?? '';
}

const FORMAT_WORDS = /response_format|json_schema|json_object|structured|tool|function/i;

/**
 * Whether the server refused the request because of the way it asked for structured output (a
 * 400 or 422 naming response_format, json_schema, tools...), not because of the prompt or the key:
 * then the next mode is worth trying.
 */
export function refusesFormat(err: unknown): boolean {
  if (!(err instanceof OpenAI.APIError) || (err.status !== 400 && err.status !== 422 && err.status !== 501)) return false;
  const body = err.error as { message?: unknown; param?: unknown } | undefined;
  const words = [typeof body?.message === 'string' ? body.message : err.message, typeof body?.param === 'string' ? body.param : ''].join(' ');
  return FORMAT_WORDS.test(words);
}

/** The next mode to try after `mode` was refused, or null when none is left. */
export function fallbackAfter(mode: StructuredOutputMode): StructuredOutputMode | null {
  return mode === 'json_schema' ? 'json_object' : mode === 'json_object' ? 'tools' : null;
}
