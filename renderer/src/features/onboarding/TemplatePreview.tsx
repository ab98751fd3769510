import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { templateQuery, useApplyTemplate, type ApplyTemplateResult, type TemplateDetail } from './api';

const allOf = (n: number) => new Set(Array.from({ length: n }, (_, i) => i));
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One template: its memories and sample signals, each with a box to untick, and the button that applies the rest. */
export function TemplatePreview({ templateKey, onBack, onApplied }: { templateKey: string; onBack: () => void; onApplied: (result: ApplyTemplateResult) => void }) {
  const detail = useQuery(templateQuery(templateKey));
  if (!detail.data) {
    return (
      <div className="stack">
        <button type="button" className="link-button onboarding-back" onClick={onBack}>
          ← All templates
        </button>
        <QueryState isPending={detail.isPending} error={detail.error} onRetry={() => void detail.refetch()} />
      </div>
    );
  }
  // Keyed by template: another template starts with everything ticked again.
  return <Preview key={detail.data.key} t={detail.data} onBack={onBack} onApplied={onApplied} />;
}

function Preview({ t, onBack, onApplied }: { t: TemplateDetail; onBack: () => void; onApplied: (result: ApplyTemplateResult) => void }) {
  const [memories, setMemories] = useState(() => allOf(t.memories.length));
  const [signals, setSignals] = useState(() => allOf(t.signals.length));
  const apply = useApplyTemplate();
  const toggle = (set: Set<number>, i: number) => {
    const next = new Set(set);
    if (next.has(i)) next.delete(i);
    else next.add(i);
    return next;
  };
  const nothing = memories.size === 0 && signals.size === 0;
  const submit = () =>
    apply.mutate(
      { key: t.key, memoryIndexes: [...memories].sort((a, b) => a - b), signalIndexes: [...signals].sort((a, b) => a - b) },
      { onSuccess: onApplied },
    );
  return (
    <div className="stack onboarding-preview">
      <button type="button" className="link-button onboarding-back" onClick={onBack}>
        ← All templates
      </button>
      <section className="card card--padded" aria-labelledby="onboarding-preview-title">
        <p className="onboarding-card__category">{t.categoryLabel}</p>
        <h2 className="card__title" id="onboarding-preview-title">
          {t.name}
        </h2>
        <p>{t.description}</p>
        {t.keywordHint ? <p className="muted">{t.keywordHint}</p> : null}
      </section>
      <section className="card card--padded" aria-labelledby="onboarding-memories-title">
        <h3 className="card__title" id="onboarding-memories-title">
          Memories ({memories.size} of {t.memories.length} chosen)
        </h3>
        <p className="muted">What the desk will know from day one. Untick what does not apply to you; you can edit any of them later on the Memory page.</p>
        <ul className="onboarding-checklist">
          {t.memories.map((m, i) => (
            <li key={m.title}>
              <label className="onboarding-check">
                <input type="checkbox" checked={memories.has(i)} onChange={() => setMemories((s) => toggle(s, i))} />
                <span>
                  <strong>{m.title}</strong> <span className="badge">{m.kind}</span> <span className="muted">importance {m.importance}</span>
                  <span className="onboarding-check__detail">{m.content}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </section>
      <section className="card card--padded" aria-labelledby="onboarding-signals-title">
        <h3 className="card__title" id="onboarding-signals-title">
          Sample signals ({signals.size} of {t.signals.length} chosen)
        </h3>
        <p className="muted">Examples of what your sources will bring in, so the loop has something to work on while you connect them.</p>
        <ul className="onboarding-checklist">
          {t.signals.map((s, i) => (
            <li key={s.title}>
              <label className="onboarding-check">
                <input type="checkbox" checked={signals.has(i)} onChange={() => setSignals((set) => toggle(set, i))} />
                <span>
                  <strong>{s.title}</strong> <span className="badge">{s.kind}</span> <span className="badge">{s.priority}</span>
                  <span className="onboarding-check__detail">{s.detail}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </section>
      {apply.error ? <FormError error={apply.error} /> : null}
      <div className="actions">
        <button type="button" className="button" disabled={nothing || apply.isPending} onClick={submit}>
          {apply.isPending ? 'Adding…' : `Add ${plural(memories.size, 'memory', 'memories')} and ${plural(signals.size, 'signal', 'signals')}`}
        </button>
        <button type="button" className="button button--secondary" onClick={onBack}>
          Choose another
        </button>
      </div>
    </div>
  );
}
