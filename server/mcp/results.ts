import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DeskError } from '../core/errors';

/**
 * Tool answers: a short text a person (or the assistant) reads, and the same data as structured
 * content for clients that use it. A refusal of the domain (the REST API's 4xx) is a tool error in
 * the API's one error shape, so the assistant can tell the operator exactly what was wrong.
 */

export function answer(text: string, data: object): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown> };
}

export function refusal(err: DeskError): CallToolResult {
  const details = err.details?.map((d) => `${d.field}: ${d.message}`).join('; ');
  const body = { error: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  return { isError: true, content: [{ type: 'text', text: `${err.code}: ${details ? `${err.message} (${details})` : err.message}` }], structuredContent: body };
}

/** Runs a tool's work; the domain's refusals become tool errors, anything else stays an error. */
export async function refusing(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DeskError && err.status < 500) return refusal(err);
    throw err;
  }
}

/** Dollars, with the fractions of a cent a small model's cycle costs. */
export const usd = (value: number): string => `$${value > 0 && value < 0.01 ? value.toFixed(4) : value.toFixed(2)}`;
const cents = (value: number): string => usd(value / 100);
export { cents };

/** One line per item, numbered, or a sentence when there is none. */
export function lines(items: string[], none: string): string {
  return items.length === 0 ? none : items.map((line, i) => `${i + 1}. ${line}`).join('\n');
}
