import { useId, type ReactNode } from 'react';

/** A card with a title and a Close button: the panel for a new item or an item opened by URL. */
export function ClosableCard({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="card card--padded" aria-labelledby={titleId}>
      <div className="card-title-row">
        <h2 className="card__title" id={titleId}>
          {title}
        </h2>
        <button type="button" className="button button--ghost button--small" onClick={onClose}>
          Close
        </button>
      </div>
      {children}
    </section>
  );
}
