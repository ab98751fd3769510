import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QUERY } from '../../api/rules.gen';
import { QueryState } from '../../components/Page';
import { useDebounced } from '../../lib/use-debounced';
import { catalogQuery, searchQuery, type TemplateSearchRow } from './api';

type Row = Pick<TemplateSearchRow, 'key' | 'name' | 'description' | 'category' | 'categoryLabel' | 'keywordHint' | 'memoryCount' | 'signalCount'>;

/** Browse the catalog by category, or search it (the server's search over names, memories and signals). */
export function TemplateBrowser({ onOpen }: { onOpen: (key: string) => void }) {
  const catalog = useQuery(catalogQuery());
  const [category, setCategory] = useState<string>('');
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const found = useQuery({ ...searchQuery(q), enabled: q !== '' });
  if (!catalog.data) return <QueryState isPending={catalog.isPending} error={catalog.error} onRetry={() => void catalog.refetch()} />;

  const searching = q !== '';
  const all: readonly Row[] = searching ? (found.data?.templates ?? []) : catalog.data.templates;
  const rows = category === '' ? all : all.filter((t) => t.category === category);
  return (
    <div className="onboarding-browser">
      <div className="filters">
        <input
          className="input filters__search"
          type="search"
          aria-label="Search templates"
          placeholder="Search templates: a business, a rule, a signal…"
          maxLength={QUERY.searchOnboardingTemplates.q.maxLength}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="onboarding-categories" role="group" aria-label="Categories">
        <button type="button" className={`onboarding-chip${category === '' ? ' is-active' : ''}`} aria-pressed={category === ''} onClick={() => setCategory('')}>
          All ({catalog.data.total})
        </button>
        {catalog.data.categories.map((c) => (
          <button key={c.key} type="button" className={`onboarding-chip${category === c.key ? ' is-active' : ''}`} aria-pressed={category === c.key} onClick={() => setCategory(c.key)}>
            {c.label} ({c.templateCount})
          </button>
        ))}
      </div>
      {searching && found.isPending ? <p className="muted loading">Searching…</p> : null}
      {searching && found.error ? <QueryState isPending={false} error={found.error} /> : null}
      {rows.length === 0 && !(searching && found.isPending) ? <p className="empty">No template matches. Try another word or category.</p> : null}
      <ul className="onboarding-cards" aria-label="Templates">
        {rows.map((t) => (
          // The card opens from anywhere on it (the button's box covers it), but the button is named by
          // the template's name alone, the visible label; the rest describes it.
          <li key={t.key} className="onboarding-card">
            <span className="onboarding-card__category">{t.categoryLabel}</span>
            <button type="button" className="onboarding-card__name" onClick={() => onOpen(t.key)} aria-describedby={`template-${t.key}-about`}>
              {t.name}
            </button>
            <span className="onboarding-card__description" id={`template-${t.key}-about`}>
              {t.description}
            </span>
            <span className="muted onboarding-card__counts">
              {t.memoryCount} memories · {t.signalCount} sample signals
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
