import type { ReactNode } from 'react';
import { FormError } from './FormError';

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1 className="page-header__title">{title}</h1>
        {description ? <p className="page-header__description">{description}</p> : null}
      </div>
      {actions ? <div className="page-header__actions">{actions}</div> : null}
    </header>
  );
}

/** What a page shows while its first query loads or when it failed. */
export function QueryState({ isPending, error, onRetry }: { isPending: boolean; error: unknown; onRetry?: () => void }) {
  if (isPending) return <p className="muted loading">Loading…</p>;
  if (!error) return null;
  return (
    <div className="card card--padded">
      <FormError error={error} />
      {onRetry ? (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
