import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { QueryState } from '../../../components/Page';
import { Section, SettingRow } from '../../../components/Section';
import { Segmented } from '../../../components/Segmented';
import { SubmitActions } from '../../../components/SubmitActions';
import { useDraft } from '../../../lib/use-draft';
import {
  DEFAULT_PRICING_MODEL,
  ENDPOINT_PRESETS,
  MODE_LABELS,
  engineSettingsQuery,
  presetFor,
  useSaveEngineSettings,
  useTestEngine,
  type EngineChoice,
  type EngineSettings,
  type EngineSettingsBody,
  type EngineTestAnswer,
} from '../engine-api';
import { EngineModelPicker, ProblemText } from './EngineModelPicker';
import { EnginePrice } from './EnginePrice';

const ENGINE_OPTIONS = [
  { value: 'local', label: 'Built-in (offline)', description: 'Runs on this machine, no key. Drafts from your signals, memory and notes.' },
  { value: 'openai', label: 'OpenAI-compatible', description: 'OpenAI, Ollama, LM Studio, vLLM, OpenRouter or any chat-completions endpoint.' },
] as const;

const FIELDS = ['engine', 'model', 'baseUrl', 'apiKey'];

/** The key as the server describes it: never the key, only whether one is set and its last 4 characters. */
function keyStatus(s: EngineSettings): string {
  if (!s.apiKeySet) return 'No key set';
  const tail = s.apiKeyHint ? ` •••• ${s.apiKeyHint}` : '';
  return s.apiKeyFromEnvironment ? `Key from DESK_OPENAI_API_KEY${tail}` : `Key set${tail}`;
}

function testText(pending: boolean, answer: EngineTestAnswer | undefined) {
  if (pending) return 'Trying what the form holds…';
  if (!answer) return '';
  // Which settings answered: a user who has not saved must not take the saved engine's answer for the form's.
  const what = answer.tested === 'form' ? 'Tested the unsaved form.' : 'Tested the saved settings.';
  return (
    <>
      <span className="engine-tested">{what}</span> {answer.ok ? `Works: ${answer.message}` : <ProblemText answer={answer} />}
    </>
  );
}

/** How the saved server takes a structured answer, once Test connection or a cycle found it. */
function structuredText(s: EngineSettings): string {
  return s.structuredOutput ? `Structured answers: ${MODE_LABELS[s.structuredOutput]}` : 'Structured answers: not found yet (Test connection finds them)';
}

function EngineForm({ settings }: { settings: EngineSettings }) {
  const save = useSaveEngineSettings();
  const test = useTestEngine();
  const [engine, setEngine] = useDraft<EngineChoice, EngineChoice>(settings.engine, (v) => v);
  const [model, setModel] = useDraft(settings.model, (v) => v ?? '');
  const [baseUrl, setBaseUrl] = useDraft(settings.baseUrl, (v) => v ?? '');
  // The key field is shown when no key is set, or when the user chose to replace it.
  const [replacing, setReplacing] = useState(false);
  const [apiKey, setApiKey] = useState('');
  const editingKey = !settings.apiKeySet || replacing;

  const choosePreset = (id: string) => {
    const preset = ENDPOINT_PRESETS.find((p) => p.id === id);
    // Custom: any other OpenAI-compatible server, by its URL.
    if (!preset) return setBaseUrl('');
    setBaseUrl(preset.baseUrl);
    // Another preset's example model goes with its server; a model the user typed stays.
    if (model.trim() === '' || ENDPOINT_PRESETS.some((p) => p.model !== '' && p.model === model.trim())) setModel(preset.model);
  };

  /** The form as PUT takes it; Test connection sends the same, so it tries what Save would keep. */
  const formBody = (): EngineSettingsBody => {
    const body: EngineSettingsBody = { engine, model: model.trim() === '' ? null : model.trim() };
    if (engine === 'openai') body.baseUrl = baseUrl.trim() === '' ? null : baseUrl.trim();
    if (editingKey && apiKey.trim() !== '') body.apiKey = apiKey.trim();
    return body;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    test.reset();
    save.mutate(formBody(), {
      onSuccess: () => {
        setApiKey('');
        setReplacing(false);
      },
    });
  };

  const clearKey = () => {
    test.reset();
    save.mutate({ apiKey: null }, { onSuccess: () => setReplacing(false) });
  };

  return (
    <form onSubmit={submit} noValidate className="stack">
      <Segmented label="Engine" variant="cards" value={engine} options={ENGINE_OPTIONS} onChange={setEngine} disabled={save.isPending} />
      {engine === 'openai' ? (
        <SettingRow title="Endpoint" description="Where the chat-completions API is. Local servers (Ollama, LM Studio, vLLM) run on this machine and need no key.">
          <div className="control-grid">
            <Field label="Preset">
              {(control) => (
                <select {...control} className="input input--select" value={presetFor(baseUrl)} onChange={(e) => choosePreset(e.target.value)}>
                  {ENDPOINT_PRESETS.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.label}
                    </option>
                  ))}
                  <option value="custom">Custom</option>
                </select>
              )}
            </Field>
            <Field label="Base URL" hint="http(s), e.g. https://api.openai.com/v1" error={fieldError(save.error, 'baseUrl')}>
              {(control) => <input {...control} className="input input--wide" value={baseUrl} autoComplete="off" spellCheck={false} onChange={(e) => setBaseUrl(e.target.value)} />}
            </Field>
          </div>
        </SettingRow>
      ) : null}
      {engine === 'openai' ? (
        <SettingRow title="API key" description="Kept outside the database (encrypted on the desktop) and never shown again; the desk only says whether one is set.">
          <div className="inline-form">
            <span className="engine-key__status" data-testid="engine-key-status">
              {keyStatus(settings)}
            </span>
            {settings.apiKeySet && !replacing && !settings.apiKeyFromEnvironment ? (
              <>
                <button type="button" className="button button--secondary" onClick={() => setReplacing(true)}>
                  Replace
                </button>
                <button type="button" className="button button--ghost" disabled={save.isPending} onClick={clearKey}>
                  Clear
                </button>
              </>
            ) : null}
          </div>
          {editingKey && !settings.apiKeyFromEnvironment ? (
            <Field label={settings.apiKeySet ? 'New API key' : 'API key'} hint="Leave empty for local servers that need none" error={fieldError(save.error, 'apiKey')}>
              {(control) => <input {...control} className="input input--wide" type="password" value={apiKey} autoComplete="off" spellCheck={false} onChange={(e) => setApiKey(e.target.value)} />}
            </Field>
          ) : null}
        </SettingRow>
      ) : null}
      {engine === 'openai' ? (
        <SettingRow title="Model" description="The model the server runs, e.g. gpt-4o-mini or llama3.1:8b. Find models lists the ones the server has.">
          <EngineModelPicker
            model={model}
            onModel={setModel}
            baseUrl={baseUrl}
            apiKey={editingKey && apiKey.trim() !== '' ? apiKey.trim() : null}
            error={fieldError(save.error, 'model') ?? null}
            disabled={save.isPending}
          />
        </SettingRow>
      ) : (
        <SettingRow title="Model" description="The built-in engine counts the tokens of its work and shows what this model would charge for it.">
          <Field label="Price as model" hint={`Empty: priced as ${DEFAULT_PRICING_MODEL}.`} error={fieldError(save.error, 'model')}>
            {(control) => <input {...control} className="input" value={model} autoComplete="off" spellCheck={false} onChange={(e) => setModel(e.target.value)} />}
          </Field>
        </SettingRow>
      )}
      <div className="inline-form">
        <SubmitActions mutation={save} />
        <button
          type="button"
          className="button button--secondary"
          disabled={test.isPending || save.isPending}
          aria-busy={test.isPending}
          onClick={() => test.mutate(formBody())}
        >
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      <p className={`save-status${test.data?.ok ? ' save-status--done' : ''}`} role="status" aria-label="Connection test" aria-live="polite">
        {testText(test.isPending, test.data)}
      </p>
      {settings.engine === 'openai' ? (
        <p className="muted small" data-testid="engine-structured-output">
          {structuredText(settings)}
        </p>
      ) : null}
      <FormError error={save.error} fields={FIELDS} />
      <FormError error={test.error} />
    </form>
  );
}

/** Settings > AI engine: which engine runs the loop, its endpoint and model, and the API key. */
export function EngineSection() {
  const settings = useQuery(engineSettingsQuery());
  return (
    <Section id="engine" title="AI engine" description="What turns signals and memory into tasks and drafts. Changes apply from the next cycle.">
      <QueryState isPending={settings.isPending} error={settings.error} onRetry={() => void settings.refetch()} />
      {settings.data ? (
        <>
          <EngineForm settings={settings.data} />
          <EnginePrice settings={settings.data} />
        </>
      ) : null}
    </Section>
  );
}
