import { useEffect, useState, type ReactNode } from 'react';
import { Field } from '../../components/Field';
import { curlExample, maskToken } from './format';

/** Copies text; falls back to the old selection API where the async clipboard is not allowed. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <button type="button" className="button button--secondary" aria-label={`${label} ${name}`} onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}>
        {label}
      </button>
      <span className={`save-status${state === 'copied' ? ' save-status--done' : ''}`} role="status" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it by hand' : ''}
      </span>
    </>
  );
}

/** A webhook URL with its copy button and a curl example; a secret one is shown masked until revealed. */
export function WebhookUrl({ label, name, url, secret, hint }: { label: string; name: string; url: string; secret: boolean; hint?: ReactNode }) {
  const [revealed, setRevealed] = useState(!secret);
  const shown = revealed ? url : maskToken(url);
  return (
    <>
      <Field
        label={label}
        hint={hint}
        className="url-field"
        after={
          <>
            {secret ? (
              <button type="button" className="button button--ghost" aria-pressed={revealed} onClick={() => setRevealed((v) => !v)}>
                {revealed ? 'Hide' : 'Show'}
              </button>
            ) : null}
            <CopyButton text={url} name={label.toLowerCase()} />
          </>
        }
      >
        {(control) => <input {...control} className="input input--code" readOnly value={shown} onFocus={(e) => revealed && e.target.select()} />}
      </Field>
      <div className="code-example">
        <pre className="code-block" aria-label={`curl example (${name})`}>
          <code>{curlExample(shown)}</code>
        </pre>
        <div className="actions">
          <CopyButton text={curlExample(url)} label="Copy command" name={name} />
        </div>
      </div>
    </>
  );
}

