/** Pure rules of the engine settings (Settings → AI engine): the bounds of what the operator enters, and how long a check waits. */
import type { EngineKind } from '../../core/vocabulary';

export const ENGINE_KINDS: readonly EngineKind[] = ['local', 'openai'];
export const MAX_MODEL_LENGTH = 200;
export const MAX_BASE_URL_LENGTH = 500;
export const MAX_API_KEY_LENGTH = 500;
/** How long Test connection waits for the provider (per request). */
export const TEST_TIMEOUT_MS = 20_000;
/** How long Find models waits for the server's list. */
export const MODELS_TIMEOUT_MS = 10_000;
