/**
 * The workspace's AI engine settings (Settings → AI engine, GET/PUT /workspace/engine): which
 * engine runs the loop, its model and base URL (workspace row), and its API key (SecretStore,
 * outside the database). The key is write-only: answers, activity rows, events and the log only
 * ever say whether one is set and its last four characters.
 */
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transactions';
import type { DeskConfig, EngineKind } from '../config';
import type { Clock } from '../core/clock';
import { invalid } from '../core/errors';
import { recordActivity, SYSTEM_ACTOR } from '../domain/activity/activity';
import { emit } from '../domain/events/outbox';
import { resolveActor } from '../domain/members/resolve-actor';
import { readWorkspace } from '../domain/workspace/workspace-store';
import { createEngine, type EngineSettings } from './index';
import { SecretsLockedError, type SecretStore } from './secrets';
import { EngineError, type Engine } from './types';

export const ENGINE_KINDS: readonly EngineKind[] = ['local', 'openai'];
export const MAX_MODEL_LENGTH = 200;
export const MAX_BASE_URL_LENGTH = 500;
export const MAX_API_KEY_LENGTH = 500;
/** How long Test connection waits for the provider. */
export const TEST_TIMEOUT_MS = 20_000;

export interface EngineSettingsView {
  engine: EngineKind;
  /** The configured model; null for the built-in engine means it prices its work as gpt-4o-mini. */
  model: string | null;
  baseUrl: string | null;
  apiKeySet: boolean;
  /** The key's last 4 characters, or null (no key, or a key this process cannot decrypt). */
  apiKeyHint: string | null;
  /** True when DESK_OPENAI_API_KEY supplies the key: it overrides the stored one and is never written. */
  apiKeyFromEnvironment: boolean;
}

export interface EngineSettingsPatch {
  engine?: EngineKind;
  model?: string | null;
  baseUrl?: string | null;
  apiKey?: string | null;
}

export interface EngineTestResult {
  ok: boolean;
  engine: EngineKind;
  model: string;
  message: string;
}

const CONTROL = /\p{Cc}/u;

function checkModel(value: string | null): string | null {
  if (value === null) return null;
  const model = value.trim();
  if (model === '') return null;
  if (model.length > MAX_MODEL_LENGTH) throw invalid('model', `must be at most ${MAX_MODEL_LENGTH} characters`);
  if (CONTROL.test(model)) throw invalid('model', 'must not contain control characters');
  return model;
}

/** An http(s) base URL (loopback allowed: Ollama, LM Studio, vLLM run locally), without a trailing slash. */
export function checkBaseUrl(field: string, value: string | null): string | null {
  if (value === null) return null;
  const url = value.trim().replace(/\/+$/, '');
  if (url === '') return null;
  if (url.length > MAX_BASE_URL_LENGTH) throw invalid(field, `must be at most ${MAX_BASE_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(field, 'must be an http(s) URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(field, 'must be an http(s) URL');
  if (parsed.username || parsed.password) throw invalid(field, 'must not contain a user name or password (put the key in apiKey)');
  return url;
}

function checkApiKey(value: string | null): string | null {
  if (value === null) return null;
  const key = value.trim();
  if (key === '') return null;
  if (key.length > MAX_API_KEY_LENGTH) throw invalid('apiKey', `must be at most ${MAX_API_KEY_LENGTH} characters`);
  if (/\s/.test(key) || CONTROL.test(key)) throw invalid('apiKey', 'must not contain spaces or control characters');
  return key;
}

const hint = (key: string | null): string | null => (key === null || key.length < 8 ? null : key.slice(-4));

export interface EngineSettingsDeps {
  db: Db;
  clock: Clock;
  secrets: SecretStore;
  /** DESK_OPENAI_API_KEY: overrides the stored key at run time, never written. */
  envApiKey: string | null;
  /** Called with every key that becomes known, so the log scrubs it. */
  onSecret: (value: string) => void;
}

export class EngineSettingsService {
  constructor(private readonly deps: EngineSettingsDeps) {
    const stored = this.storedKey();
    if (stored) deps.onSecret(stored);
    if (deps.envApiKey) deps.onSecret(deps.envApiKey);
  }

  private storedKey(): string | null {
    try {
      return this.deps.secrets.get('engine.apiKey');
    } catch (err) {
      if (err instanceof SecretsLockedError) return null;
      throw err;
    }
  }

  /** The key the engine uses: the environment's, else the stored one. Throws EngineError when the stored one is unreadable here. */
  apiKey(): string | null {
    if (this.deps.envApiKey) return this.deps.envApiKey;
    try {
      return this.deps.secrets.get('engine.apiKey');
    } catch (err) {
      if (err instanceof SecretsLockedError) {
        throw new EngineError('The stored API key cannot be read here (encrypted by the desktop app, or its file is damaged): enter it again in Settings, or set DESK_OPENAI_API_KEY.');
      }
      throw err;
    }
  }

  async settings(): Promise<EngineSettings> {
    const row = await readWorkspace(this.deps.db);
    return { engine: row.engine, engineModel: row.engineModel, engineBaseUrl: row.engineBaseUrl };
  }

  async view(): Promise<EngineSettingsView> {
    const s = await this.settings();
    const fromEnv = Boolean(this.deps.envApiKey);
    const key = fromEnv ? this.deps.envApiKey! : this.storedKey();
    return {
      engine: s.engine, model: s.engineModel, baseUrl: s.engineBaseUrl,
      apiKeySet: fromEnv || this.deps.secrets.has('engine.apiKey'), apiKeyHint: hint(key), apiKeyFromEnvironment: fromEnv,
    };
  }

  /** The engine the next cycle runs with. */
  async engine(options: { timeoutMs?: number; maxRetries?: number } = {}): Promise<Engine> {
    const s = await this.settings();
    return createEngine(s, s.engine === 'openai' ? this.apiKey() : null, options);
  }

  /** Applies a change (absent fields stay); one activity row and one event, none when nothing changed. */
  async update(patch: EngineSettingsPatch): Promise<EngineSettingsView> {
    if (patch.engine !== undefined && !ENGINE_KINDS.includes(patch.engine)) throw invalid('engine', 'must be local or openai');
    const model = patch.model === undefined ? undefined : checkModel(patch.model);
    const baseUrl = patch.baseUrl === undefined ? undefined : checkBaseUrl('baseUrl', patch.baseUrl);
    const apiKey = patch.apiKey === undefined ? undefined : checkApiKey(patch.apiKey);
    await inTransaction(this.deps.db, async (trx) => {
      const before = await readWorkspace(trx);
      const next = { engine: patch.engine ?? before.engine, engineModel: model === undefined ? before.engineModel : model, engineBaseUrl: baseUrl === undefined ? before.engineBaseUrl : baseUrl };
      if (next.engine === 'openai') {
        if (next.engineBaseUrl === null) throw invalid('baseUrl', 'is required for the openai engine (e.g. https://api.openai.com/v1, or http://127.0.0.1:11434/v1 for Ollama)');
        if (next.engineModel === null) throw invalid('model', 'is required for the openai engine (e.g. gpt-4o-mini, or llama3.1 for Ollama)');
      }
      const storedBefore = this.deps.secrets.has('engine.apiKey');
      const keyChange = apiKey === undefined ? null : apiKey === null ? (storedBefore ? 'cleared' : null) : apiKey === this.storedKey() ? null : 'replaced';
      const changed = next.engine !== before.engine || next.engineModel !== before.engineModel || next.engineBaseUrl !== before.engineBaseUrl;
      if (!changed && keyChange === null) return;
      // What was found about the old server (its structured-output mode) does not carry over to a new one.
      const sameServer = next.engineModel === before.engineModel && next.engineBaseUrl === before.engineBaseUrl;
      if (changed) await trx.updateTable('workspace').set({ ...next, ...(sameServer ? {} : { engineStructuredOutput: null }), updatedAt: this.deps.clock.now().toISOString() }).execute();
      const parts = [`AI engine: ${next.engine === 'local' ? 'built-in' : 'OpenAI-compatible'}`];
      if (next.engineModel) parts.push(`model ${next.engineModel}`);
      if (next.engine === 'openai' && next.engineBaseUrl) parts.push(`at ${next.engineBaseUrl}`);
      if (keyChange) parts.push(`API key ${keyChange}`);
      const actor = await resolveActor(trx);
      await recordActivity(trx, this.deps.clock, { kind: 'workspace.engine', detail: parts.join(', '), actor, entityType: 'workspace', entityId: before.id });
      const apiKeySet = keyChange === 'replaced' ? true : keyChange === 'cleared' ? false : storedBefore;
      await emit(trx, this.deps.clock, 'workspace.engine_changed', { engine: next.engine, model: next.engineModel, baseUrl: next.engineBaseUrl, apiKeySet: apiKeySet || Boolean(this.deps.envApiKey) });
      // Last, inside the transaction: a failed write of the key rolls the settings back with it.
      if (keyChange !== null) {
        if (apiKey) this.deps.onSecret(apiKey);
        this.deps.secrets.set('engine.apiKey', apiKey ?? null);
      }
    });
    return this.view();
  }

  /** Fresh workspace: DESK_ENGINE / DESK_MODEL / DESK_OPENAI_BASE_URL become its settings (logged as the system). */
  async seedFromConfig(config: Pick<DeskConfig, 'engine' | 'openai'>): Promise<void> {
    const model = checkModel(config.openai.model ?? null);
    const baseUrl = checkBaseUrl('DESK_OPENAI_BASE_URL', config.openai.baseUrl ?? null);
    if (config.engine === 'local' && model === null && baseUrl === null) return;
    await inTransaction(this.deps.db, async (trx) => {
      const row = await readWorkspace(trx);
      await trx.updateTable('workspace').set({ engine: config.engine, engineModel: model, engineBaseUrl: baseUrl }).execute();
      const detail = `AI engine from the environment: ${config.engine === 'local' ? 'built-in' : 'OpenAI-compatible'}${model ? `, model ${model}` : ''}${config.engine === 'openai' && baseUrl ? ` at ${baseUrl}` : ''}`;
      await recordActivity(trx, this.deps.clock, { kind: 'workspace.engine', detail, actor: SYSTEM_ACTOR, entityType: 'workspace', entityId: row.id });
      await emit(trx, this.deps.clock, 'workspace.engine_changed', { engine: config.engine, model, baseUrl, apiKeySet: Boolean(this.deps.envApiKey) || this.deps.secrets.has('engine.apiKey') });
    });
  }

  /** Settings → Test connection: a tiny request to the configured engine; a failure is an answer, not an error. */
  async test(): Promise<EngineTestResult> {
    const s = await this.settings();
    let engine: Engine;
    try {
      engine = await this.engine({ timeoutMs: TEST_TIMEOUT_MS, maxRetries: 0 });
    } catch (err) {
      if (err instanceof EngineError) return { ok: false, engine: s.engine, model: s.engineModel ?? '', message: err.message };
      throw err;
    }
    try {
      const message = engine.check ? await engine.check() : 'Ready.';
      return { ok: true, engine: engine.kind, model: engine.model, message };
    } catch (err) {
      if (err instanceof EngineError) return { ok: false, engine: engine.kind, model: engine.model, message: err.message };
      throw err;
    }
  }
}
