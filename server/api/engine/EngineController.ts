import { Body, Controller, Get, Post, Put, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { EngineKind } from '../../config';
import type { ErrorBody } from '../../core/errors';
import type { EngineTestResult } from '../../engine/settings';
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
}

export interface EngineSettingsBody {
  engine?: EngineChoice;
  /**
   * The model; an empty string or null clears it (required for `openai`).
   * @maxLength 200
   * @example "gpt-4o-mini"
   */
  model?: string | null;
  /**
   * http(s) base URL of an OpenAI-compatible endpoint, loopback allowed; an empty string or null
   * clears it (required for `openai`). A trailing slash is dropped.
   * @maxLength 500
   * @example "http://127.0.0.1:11434/v1"
   */
  baseUrl?: string | null;
  /**
   * Write-only: the API key, kept outside the database (encrypted on the desktop). An empty string
   * or null removes the stored key; absent leaves it as it is. Local servers need none.
   * @maxLength 500
   */
  apiKey?: string | null;
}

export interface EngineTestAnswer extends EngineTestResult {
  /** What the user sees: the model's answer on success, the provider's error otherwise (never the key). */
  message: string;
}

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
   * Tries the configured engine with a tiny request (one short chat completion for `openai`; the
   * built-in engine is always ready). Always 200: `ok` false carries the provider's error, e.g. a
   * rejected key or an unknown model. Nothing is recorded and no cost is counted.
   */
  @Post('test')
  public async testEngine(): Promise<EngineTestAnswer> {
    return this.s.engineSettings.test();
  }
}
