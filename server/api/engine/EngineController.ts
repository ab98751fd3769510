import { Body, Controller, Get, Post, Put, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { EngineKind } from '../../config';
import type { ErrorBody } from '../../core/errors';
import type { EngineProblem } from '../../engine/discovery';
import type { PriceView } from '../../domain/engine-settings/price-settings';
import type { ModelsResult, TestedWhat } from '../../domain/engine-settings/engine-settings-service';
import type { StructuredOutputMode } from '../../engine/structured-output';
import type { Services } from '../../services';

/** Which engine runs the loop: `local` (built-in, offline, no key) or `openai` (any OpenAI-compatible chat-completions endpoint). */
export type EngineChoice = EngineKind;

export interface EngineSettingsResult {
  engine: EngineChoice;
  /**
   * The model. For `openai`, the model the endpoint runs (e.g. gpt-4o-mini, llama3.1). For `local`,
   * the model whose prices the built-in engine's token usage is costed at; null means gpt-4o-mini.
   */
  model: string | null;
  /** The OpenAI-compatible base URL (e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 for Ollama); null when unset. */
  baseUrl: string | null;
  /** Whether an API key is set (stored, or given by DESK_OPENAI_API_KEY). The key itself is never returned. */
  apiKeySet: boolean;
  /** The key's last 4 characters, or null (no key, a key shorter than 8 characters, or one this process cannot decrypt). */
  apiKeyHint: string | null;
  /** True when DESK_OPENAI_API_KEY supplies the key: it overrides the stored key and is never written. */
  apiKeyFromEnvironment: boolean;
  /** The price the cycles are budgeted and charged at (for the built-in engine: what its work would cost at this model), and where it comes from. */
  price: PriceView;
  /**
   * How the server takes a structured answer, found once by Test connection or the first cycle:
   * `json_schema` (strict schema), `json_object` (JSON mode), `tools` (a forced tool call); null until found.
   */
  structuredOutput: StructuredOutputMode | null;
}

export interface EngineSettingsBody {
  engine?: EngineChoice;
  /**
   * The model; an empty string or null clears it (required for `openai`).
   * @example "gpt-4o-mini"
   */
  model?: string | null;
  /**
   * http(s) base URL of an OpenAI-compatible endpoint, loopback allowed; an empty string or null
   * clears it (required for `openai`). A trailing slash is dropped.
   * @example "http://127.0.0.1:11434/v1"
   */
  baseUrl?: string | null;
  /**
   * Write-only: the API key, kept outside the database (encrypted on the desktop). An empty string
   * or null removes the stored key; absent leaves it as it is. Local servers need none.
   */
  apiKey?: string | null;
  /**
   * The operator's price of the model, USD per million input tokens (for a model the price table
   * does not know: a fine-tune, a local model). Given with outputPricePerMillionUsd; null for both
   * clears it (the price table, or zero for a server on this machine, applies again).
   * @example 0.15
   */
  inputPricePerMillionUsd?: number | null;
  /**
   * USD per million output tokens; given with inputPricePerMillionUsd.
   * @example 0.6
   */
  outputPricePerMillionUsd?: number | null;
}

export interface EngineTestAnswer {
  ok: boolean;
  engine: EngineChoice;
  model: string;
  /** What the user sees: what was found on success, the provider's error otherwise (redacted, never the key). */
  message: string;
  /**
   * Why it failed, null when it works: `unreachable` (nothing answers at the URL), `key_refused`
   * (401/403), `unknown_model` (the server lacks the model), `no_structured_output` (it refuses
   * json_schema, JSON mode and tool calls), `not_configured`, `key_unreadable`, `provider_error`.
   */
  problem: EngineProblem | null;
  /** What to do about the problem, e.g. "Pull it with `ollama pull llama3.1`"; null when it works. */
  hint: string | null;
  /** How the server takes a structured answer, found by this test and remembered; null on failure and for the built-in engine. */
  structuredOutput: StructuredOutputMode | null;
  /**
   * What was tried: `form`, the settings in the request body where they differ from the saved ones
   * (the unsaved form); `saved`, the saved settings (no body, or a body equal to them).
   */
  tested: TestedWhat;
}

/**
 * The form to test, as Settings holds it, unsaved: each field given overrides the saved value, an
 * absent one is the saved value (as PUT would apply them). Checked as PUT checks them (422 naming
 * the field), but a missing base URL or model is an answer (`not_configured`), not an error.
 */
export interface EngineTestBody {
  engine?: EngineChoice;
  /** @example "llama3.1:8b" */
  model?: string | null;
  /** @example "http://127.0.0.1:11434/v1" */
  baseUrl?: string | null;
  /**
   * Write-only, used for this test only (never stored). Absent, null or empty: the saved key, which
   * is sent only when baseUrl is the saved one (a key never goes to another server).
   */
  apiKey?: string | null;
}

export interface EngineModelsBody {
  /**
   * The server to ask (its OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1).
   */
  baseUrl: string;
  /**
   * The key to ask with. Absent: the stored key, only when baseUrl is the saved one; null or empty: none.
   */
  apiKey?: string | null;
}

export type EngineModelsAnswer = ModelsResult;

/** Settings → AI engine: which engine runs the loop cycles, its model and endpoint, and its API key. */
@Route('api/v1/workspace/engine')
@Tags('Workspace configuration')
@Security('bearer')
export class EngineController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** The engine settings. The API key is never returned: only whether one is set and its last 4 characters. */
  @Get()
  public async getEngineSettings(): Promise<EngineSettingsResult> {
    return this.s.engineSettings.view();
  }

  /**
   * Changes the engine settings; absent fields stay as they are. `openai` needs a base URL and a
   * model (422 naming the missing one). A change writes one `workspace.engine` activity row and
   * emits `workspace.engine_changed` (neither carries the key); the next cycle runs with the new
   * settings. A request that changes nothing writes nothing.
   */
  @Put()
  @Response<ErrorBody>('422', 'A field is invalid, or the openai engine lacks its base URL or model')
  public async updateEngineSettings(@Body() body: EngineSettingsBody): Promise<EngineSettingsResult> {
    return this.s.engineSettings.update(body);
  }

  /**
   * Tries an engine with a tiny request: the settings in the body (the unsaved form; absent fields
   * are the saved values), or the saved settings without a body; `tested` says which. The built-in
   * engine is always ready. For `openai`: the server's model list, then one tiny structured answer
   * per way of asking (json_schema, else JSON mode, else a tool call) until one works; the way found
   * is remembered (`structuredOutput`) when the saved model and base URL were tested. Always 200
   * for a server that fails: `ok` false names the `problem`, with the provider's words and a `hint`;
   * 422 for a field PUT would refuse. No activity and no cost are recorded; nothing is saved.
   */
  @Post('test')
  @Response<ErrorBody>('422', 'A field of the form is invalid')
  public async testEngine(@Body() body?: EngineTestBody): Promise<EngineTestAnswer> {
    return this.s.engineSettings.test(body ?? {});
  }

  /**
   * The models a server lists (its GET /models), before anything is saved, so Settings can offer
   * them. Sorted, at most 500. The stored key is sent only to the saved base URL. Always 200 for a
   * server that fails (`ok` false, `problem` and `hint` as for Test connection); 422 for a bad URL or key.
   */
  @Post('models')
  @Response<ErrorBody>('422', 'baseUrl is missing or not an http(s) URL, or apiKey is invalid')
  public async listEngineModels(@Body() body: EngineModelsBody): Promise<EngineModelsAnswer> {
    return this.s.engineSettings.models(body);
  }
}
