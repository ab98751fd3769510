/**
 * The workspace's AI engine settings (Settings → AI engine, GET/PUT /workspace/engine): which
 * engine runs the loop, its model and base URL (workspace row), and its API key (SecretStore,
 * outside the database). The key is write-only: answers, activity rows, events and the log only
 * ever say whether one is set and its last four characters.
 */
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { DeskConfig } from '../../config';
import type { Clock } from '../../core/clock';
import { invalid } from '../../core/errors';
import type { EngineKind, StructuredOutputMode } from '../../core/vocabulary';
import { checkConnection, listModels, MAX_MODELS, type Diagnosis, type EngineProblem } from '../../engine/discovery';
import { createEngine, type EngineSettings } from '../../engine/index';
import { SecretsLockedError, type SecretStore } from '../../engine/secrets';
import { EngineError, type Engine } from '../../engine/types';
import { recordActivity, SYSTEM_ACTOR } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { readWorkspace, rememberStructuredOutput, writeEngineColumns } from '../workspace/workspace-store';
import { checkPrice, priceText, priceView, type PricePatch, type PriceView } from './price-settings';
import { checkApiKey, checkBaseUrl, checkModel, ENGINE_KINDS, MODELS_TIMEOUT_MS, TEST_TIMEOUT_MS } from './rules';


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
  /** The price the cycles are budgeted and charged at, and where it comes from. */
  price: PriceView;
  /** How the server takes a structured answer, once found (Test connection or a cycle); null until then. */
  structuredOutput: StructuredOutputMode | null;
}

export interface EngineSettingsPatch extends PricePatch {
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
  /** Why it failed; null when it works. */
  problem: EngineProblem | null;
  /** What to do about the problem; null when it works. */
  hint: string | null;
  /** openai: how the server takes a structured answer, found by this test (and remembered). */
  structuredOutput: StructuredOutputMode | null;
  tested: TestedWhat;
}

/** Which settings Test connection tried: the form as it stands (unsaved changes), or the saved ones. */
export type TestedWhat = 'form' | 'saved';

/** The form as Settings holds it; an absent field is the saved value. A blank or absent key means the saved key (sent only to the saved base URL). */
export interface EngineTestForm {
  engine?: EngineKind;
  model?: string | null;
  baseUrl?: string | null;
  apiKey?: string | null;
}

export interface ModelsRequest {
  baseUrl: string;
  /** Absent: the stored key, when baseUrl is the saved one (a key never goes to another server). */
  apiKey?: string | null;
}

export interface ModelsResult {
  ok: boolean;
  /** The server's model ids, sorted; at most MAX_MODELS. Empty on failure. */
  models: string[];
  /** True when the server listed more than MAX_MODELS. */
  truncated: boolean;
  message: string;
  problem: EngineProblem | null;
  hint: string | null;
}

function checkEnumEngine(value: EngineKind): EngineKind {
  if (!ENGINE_KINDS.includes(value)) throw invalid('engine', 'must be local or openai');
  return value;
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
    return { engine: row.engine, engineModel: row.engineModel, engineBaseUrl: row.engineBaseUrl, structuredOutput: row.engineStructuredOutput };
  }

  async view(): Promise<EngineSettingsView> {
    const row = await readWorkspace(this.deps.db);
    const fromEnv = Boolean(this.deps.envApiKey);
    const key = fromEnv ? this.deps.envApiKey! : this.storedKey();
    return {
      engine: row.engine, model: row.engineModel, baseUrl: row.engineBaseUrl,
      apiKeySet: fromEnv || this.deps.secrets.has('engine.apiKey'), apiKeyHint: hint(key), apiKeyFromEnvironment: fromEnv,
      price: priceView(row), structuredOutput: row.engineStructuredOutput,
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
    const price = checkPrice(patch);
    await inTransaction(this.deps.db, async (trx) => {
      const before = await readWorkspace(trx);
      const next = { engine: patch.engine ?? before.engine, engineModel: model === undefined ? before.engineModel : model, engineBaseUrl: baseUrl === undefined ? before.engineBaseUrl : baseUrl };
      if (next.engine === 'openai') {
        if (next.engineBaseUrl === null) throw invalid('baseUrl', 'is required for the openai engine (e.g. https://api.openai.com/v1, or http://127.0.0.1:11434/v1 for Ollama)');
        if (next.engineModel === null) throw invalid('model', 'is required for the openai engine (e.g. gpt-4o-mini, or llama3.1 for Ollama)');
      }
      const storedBefore = this.deps.secrets.has('engine.apiKey');
      const keyChange = apiKey === undefined ? null : apiKey === null ? (storedBefore ? 'cleared' : null) : apiKey === this.storedKey() ? null : 'replaced';
      const prices = price === undefined ? { engineInputPrice: before.engineInputPrice, engineOutputPrice: before.engineOutputPrice } : { engineInputPrice: price?.input ?? null, engineOutputPrice: price?.output ?? null };
      const priceChanged = prices.engineInputPrice !== before.engineInputPrice || prices.engineOutputPrice !== before.engineOutputPrice;
      const changed = next.engine !== before.engine || next.engineModel !== before.engineModel || next.engineBaseUrl !== before.engineBaseUrl || priceChanged;
      if (!changed && keyChange === null) return;
      // What was found about the old server (its structured-output mode) does not carry over to a new one.
      const sameServer = next.engineModel === before.engineModel && next.engineBaseUrl === before.engineBaseUrl;
      if (changed) await writeEngineColumns(trx, { ...next, ...prices, ...(sameServer ? {} : { engineStructuredOutput: null }), updatedAt: this.deps.clock.now().toISOString() });
      const parts = [`AI engine: ${next.engine === 'local' ? 'built-in' : 'OpenAI-compatible'}`];
      if (next.engineModel) parts.push(`model ${next.engineModel}`);
      if (next.engine === 'openai' && next.engineBaseUrl) parts.push(`at ${next.engineBaseUrl}`);
      if (keyChange) parts.push(`API key ${keyChange}`);
      if (priceChanged) parts.push(prices.engineInputPrice === null || prices.engineOutputPrice === null ? 'own price cleared' : `own price ${priceText(prices.engineInputPrice, prices.engineOutputPrice)}`);
      const actor = await resolveActor(trx);
      await recordActivity(trx, this.deps.clock, { kind: 'workspace.engine', detail: parts.join(', '), actor, entityType: 'workspace', entityId: before.id });
      const apiKeySet = keyChange === 'replaced' ? true : keyChange === 'cleared' ? false : storedBefore;
      const perMillionUsd = (micro: number | null) => (micro === null ? null : micro / 1_000_000);
      await emit(trx, this.deps.clock, 'workspace.engine_changed', {
        engine: next.engine, model: next.engineModel, baseUrl: next.engineBaseUrl, apiKeySet: apiKeySet || Boolean(this.deps.envApiKey),
        inputPricePerMillionUsd: perMillionUsd(prices.engineInputPrice), outputPricePerMillionUsd: perMillionUsd(prices.engineOutputPrice),
      });
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
      await writeEngineColumns(trx, { engine: config.engine, engineModel: model, engineBaseUrl: baseUrl });
      const detail = `AI engine from the environment: ${config.engine === 'local' ? 'built-in' : 'OpenAI-compatible'}${model ? `, model ${model}` : ''}${config.engine === 'openai' && baseUrl ? ` at ${baseUrl}` : ''}`;
      await recordActivity(trx, this.deps.clock, { kind: 'workspace.engine', detail, actor: SYSTEM_ACTOR, entityType: 'workspace', entityId: row.id });
      await emit(trx, this.deps.clock, 'workspace.engine_changed', {
        engine: config.engine, model, baseUrl, apiKeySet: Boolean(this.deps.envApiKey) || this.deps.secrets.has('engine.apiKey'),
        inputPricePerMillionUsd: null, outputPricePerMillionUsd: null,
      });
    });
  }

  /**
   * Settings → Test connection, of what the form holds: `form` fields override the saved settings
   * (absent ones stay saved, as PUT applies them), so an unsaved switch to another server is what
   * gets tried. The built-in engine is always ready; an OpenAI-compatible server is asked for its
   * models and probed for structured output. The mode found is remembered only while the saved
   * model and base URL are the ones tested. A failure is an answer, not an error; `tested` says
   * whether the unsaved form or the saved settings were tried.
   */
  async test(form: EngineTestForm = {}): Promise<EngineTestResult> {
    const saved = await this.settings();
    const engine = form.engine === undefined ? saved.engine : checkEnumEngine(form.engine);
    const engineModel = form.model === undefined ? saved.engineModel : checkModel(form.model);
    const engineBaseUrl = form.baseUrl === undefined ? saved.engineBaseUrl : checkBaseUrl('baseUrl', form.baseUrl);
    const typedKey = form.apiKey === undefined ? null : checkApiKey(form.apiKey);
    const s: EngineSettings = { ...saved, engine, engineModel, engineBaseUrl };
    const sameServer = engineModel === saved.engineModel && engineBaseUrl === saved.engineBaseUrl;
    const tested: TestedWhat = engine === saved.engine && sameServer && (typedKey === null || typedKey === this.storedKeyOrNull()) ? 'saved' : 'form';
    const model = engineModel ?? '';
    const failed = (d: Diagnosis): EngineTestResult => ({ ok: false, engine, model, message: d.message, problem: d.problem, hint: d.hint, structuredOutput: null, tested });
    if (engine === 'local') {
      const local = createEngine(s, null);
      const message = local.check ? await local.check() : 'Ready.';
      return { ok: true, engine: 'local', model: local.model, message, problem: null, hint: null, structuredOutput: null, tested };
    }
    if (!engineBaseUrl || !engineModel) {
      const missing = !engineBaseUrl && !engineModel ? 'a base URL and a model' : !engineBaseUrl ? 'a base URL' : 'a model';
      return failed({ problem: 'not_configured', message: `The OpenAI-compatible engine needs ${missing}.`, hint: 'Pick a preset, then find and choose a model (or type one).' });
    }
    let apiKey: string | null = typedKey;
    // A blank key field means the saved key, which goes only to the saved server.
    if (apiKey === null && engineBaseUrl === saved.engineBaseUrl) {
      try {
        apiKey = this.apiKey();
      } catch (err) {
        if (err instanceof EngineError) return failed({ problem: 'key_unreadable', message: err.message, hint: 'Enter the key again under API key, then Save.' });
        throw err;
      }
    }
    if (typedKey) this.deps.onSecret(typedKey);
    const found = await checkConnection({ baseUrl: engineBaseUrl, apiKey, timeoutMs: TEST_TIMEOUT_MS }, engineModel);
    if (!found.ok) return failed(found);
    if (sameServer) await inTransaction(this.deps.db, (trx) => rememberStructuredOutput(trx, s, found.mode));
    return { ok: true, engine: 'openai', model, message: found.message, problem: null, hint: null, structuredOutput: found.mode, tested };
  }

  private storedKeyOrNull(): string | null {
    return this.deps.envApiKey ?? this.storedKey();
  }

  /**
   * Settings → Find models: the models a server lists (GET /models), before anything is saved. The
   * stored key goes only to the saved base URL; another URL is asked with the key given, or none.
   */
  async models(req: ModelsRequest): Promise<ModelsResult> {
    const baseUrl = checkBaseUrl('baseUrl', typeof req.baseUrl === 'string' ? req.baseUrl : null);
    if (baseUrl === null) throw invalid('baseUrl', 'is required (e.g. http://127.0.0.1:11434/v1 for Ollama)');
    let apiKey = req.apiKey === undefined ? null : checkApiKey(req.apiKey);
    if (req.apiKey === undefined) {
      const saved = await this.settings();
      if (saved.engineBaseUrl === baseUrl) {
        try {
          apiKey = this.apiKey();
        } catch (err) {
          if (!(err instanceof EngineError)) throw err;
          return { ok: false, models: [], truncated: false, message: err.message, problem: 'key_unreadable', hint: 'Enter the key again under API key.' };
        }
      }
    }
    if (apiKey) this.deps.onSecret(apiKey);
    const list = await listModels({ baseUrl, apiKey, timeoutMs: MODELS_TIMEOUT_MS });
    if (!list.ok) return { ok: false, models: [], truncated: false, message: list.message, problem: list.problem, hint: list.hint };
    const count = list.models.length === 0 ? 'no models' : list.models.length === 1 ? '1 model' : `${list.models.length}${list.truncated ? '+' : ''} models`;
    return {
      ok: true, models: list.models, truncated: list.truncated, problem: null,
      message: `The server at ${baseUrl} lists ${count}${list.truncated ? ` (the first ${MAX_MODELS} shown)` : ''}.`,
      hint: list.models.length === 0 ? 'Load or pull a model on the server first.' : null,
    };
  }
}
