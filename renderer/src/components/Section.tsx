import type { ReactNode } from 'react';

/** A titled card on a page; `id` makes it linkable from the page's table of contents. */
export function Section({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section className="card" id={id} aria-labelledby={`${id}-title`}>
      <header className="card__header">
        <h2 className="card__title" id={`${id}-title`}>
          {title}
        </h2>
        {description ? <p className="card__description">{description}</p> : null}
      </header>
      <div className="card__body">{children}</div>
    </section>
  );
}

/** One setting inside a card: a name and explanation on the left, its controls on the right. */
export function SettingRow({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <div className="setting">
      <div className="setting__text">
        <h3 className="setting__title">{title}</h3>
        {description ? <p className="setting__description">{description}</p> : null}
      </div>
      <div className="setting__controls">{children}</div>
    </div>
  );
}
