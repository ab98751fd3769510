/**
 * Provider failures as the run record shows them: one sentence, no stack, no key. Provider
 * messages are passed through redacted (OpenAI's 401 message quotes part of the key).
 */
import OpenAI from 'openai';
import { sentence } from '../../core/sentence';
import { EngineError } from '../types';

const KEY_LIKE = /\b(sk|rk|pk)-[A-Za-z0-9_*-]{6,}/g;

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out.replace(KEY_LIKE, '[redacted]').replace(/\s+/g, ' ').trim().slice(0, 300);
}

export function providerError(err: unknown, secrets: readonly string[]): EngineError {
  if (err instanceof EngineError) return err;
  // The provider's own words close the message, as they came: they end the sentence here.
  return new EngineError(sentence(describe(err, secrets).message));
}

function describe(err: unknown, secrets: readonly string[]): EngineError {
  if (err instanceof OpenAI.APIUserAbortError) return new EngineError('The cycle was cancelled before the provider answered.');
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new EngineError('The provider did not answer in time (request timed out).');
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${redact(err.cause.message, secrets)}` : '';
    return new EngineError(`Could not reach the provider${cause}.`);
  }
  if (err instanceof OpenAI.APIError) {
    const detail = redact(providerMessage(err), secrets);
    if (err.status === 401) return new EngineError(`The provider rejected the API key (401)${detail ? `: ${detail}` : '.'}`);
    if (err.status === 403) return new EngineError(`The provider refused access (403)${detail ? `: ${detail}` : '.'}`);
    if (err.status === 404) return new EngineError(`The provider does not know this model or endpoint (404)${detail ? `: ${detail}` : '.'}`);
    if (err.status === 429) return new EngineError(`The provider is rate limiting or out of quota (429)${detail ? `: ${detail}` : '.'}`);
    return new EngineError(`The provider failed${err.status ? ` (${err.status})` : ''}${detail ? `: ${detail}` : '.'}`);
  }
  return new EngineError(`The provider call failed: ${redact(err instanceof Error ? err.message : String(err), secrets)}`);
}

/** The provider's own message, without the SDK's "500 " status prefix. */
function providerMessage(err: InstanceType<typeof OpenAI.APIError>): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return err.message.replace(/^\d{3}\s*/, '').replace(/^status code \(no body\)$/, '');
}
