import { useState, type FormEvent } from 'react';
import { Brand } from '../components/Brand';
import { Field } from '../components/Field';
import { tokenFromFragment, useAuth } from '../lib/auth';
import './SignIn.css';

/** Pulls a token out of a pasted link (`http://.../#token=...`) or takes the pasted text as the token. */
export function tokenFromPaste(text: string): string | null {
  const s = text.trim();
  if (!s) return null;
  const hashAt = s.indexOf('#');
  if (hashAt >= 0) return tokenFromFragment(s.slice(hashAt)).token;
  return /^[A-Za-z0-9_-]{16,}$/.test(s) ? s : null;
}

/** Shown without a token, or after the API rejected it (401). */
export function SignIn() {
  const status = useAuth((s) => s.status);
  const signIn = useAuth((s) => s.signIn);
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const token = tokenFromPaste(pasted);
    setError(token ? null : 'Paste the whole link that ends in #token=…');
    if (token) signIn(token);
  };
  return (
    <main className="signin">
      <div className="signin__card card card--padded">
        <Brand large />
        <h1 className="signin__title">{status === 'rejected' ? 'Your access link is no longer valid' : 'Open the link printed by npm start'}</h1>
        <p className="muted">
          {status === 'rejected'
            ? 'Desk did not accept the token this window had, for example because it was restarted with another data folder. '
            : 'Desk needs its access token, which comes in the link it prints when it starts. '}
          Open the <code>Open: http://127.0.0.1:…/#token=…</code> link from the terminal where <code>npm start</code> runs.
        </p>
        <form className="signin__form" onSubmit={submit} noValidate>
          <Field
            label="Or paste the link here"
            error={error}
            after={
              <button type="submit" className="button">
                Continue
              </button>
            }
          >
            {(control) => <input {...control} className="input input--wide" value={pasted} autoComplete="off" spellCheck={false} onChange={(e) => setPasted(e.target.value)} />}
          </Field>
        </form>
      </div>
    </main>
  );
}
