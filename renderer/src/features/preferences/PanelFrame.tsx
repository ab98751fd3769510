import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import './preferences.css';

/** The drag payload type of a panel being moved (only frames of the same group accept it). */
const dragType = (group: string) => `application/x-desk-panel-${group}`;

/**
 * The arrangement controls around one panel of a page the user lays out: collapse (the panel's content
 * is not rendered while collapsed, so its queries do not run), move up and down (buttons, keyboard
 * accessible) and drag onto another panel of the same group. `children` renders the panel itself; the
 * controls sit in its top-right corner.
 */
export function PanelFrame({
  group,
  id,
  title,
  collapsed,
  onCollapsedChange,
  onMove,
  onDropPanel,
  first,
  last,
  className,
  children,
}: {
  /** Which set of panels this one belongs to (drops are accepted only within a group). */
  group: string;
  id: string;
  title: string;
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
  /** Move by one place: -1 up, +1 down. */
  onMove: (by: -1 | 1) => void;
  /** Another panel of the group was dropped on this one: it takes this one's place. */
  onDropPanel: (draggedId: string) => void;
  first: boolean;
  last: boolean;
  className?: string;
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const moved = useRef<-1 | 1 | null>(null);
  // A panel moved to an end disables the button that moved it: keep the keyboard focus on its other move button.
  useEffect(() => {
    if (moved.current === -1 && first) down.current?.focus();
    if (moved.current === 1 && last) up.current?.focus();
    moved.current = null;
  }, [first, last]);
  const moveBy = (by: -1 | 1) => {
    moved.current = by;
    onMove(by);
  };
  const accepts = (e: DragEvent) => e.dataTransfer.types.includes(dragType(group));
  const bodyId = `panel-${group}-${id}`;
  return (
    <div
      className={['panel-frame', collapsed ? 'is-collapsed' : '', over ? 'is-drop-target' : '', className ?? ''].filter(Boolean).join(' ')}
      data-panel={id}
      onDragOver={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        if (!accepts(e)) return;
        e.preventDefault();
        const dragged = e.dataTransfer.getData(dragType(group));
        if (dragged && dragged !== id) onDropPanel(dragged);
      }}
    >
      <div className="panel-frame__tools" role="group" aria-label={`Arrange ${title}`}>
        <span
          className="panel-frame__grip"
          draggable
          title="Drag to move"
          aria-hidden="true"
          onDragStart={(e) => {
            e.dataTransfer.setData(dragType(group), id);
            e.dataTransfer.effectAllowed = 'move';
          }}
        >
          ⠿
        </span>
        <button ref={up} type="button" className="panel-frame__button" aria-label={`Move ${title} up`} title="Move up" disabled={first} onClick={() => moveBy(-1)}>
          ↑
        </button>
        <button ref={down} type="button" className="panel-frame__button" aria-label={`Move ${title} down`} title="Move down" disabled={last} onClick={() => moveBy(1)}>
          ↓
        </button>
        <button
          type="button"
          className="panel-frame__button"
          aria-expanded={!collapsed}
          aria-controls={collapsed ? undefined : bodyId}
          aria-label={collapsed ? `Expand ${title}` : `Collapse ${title}`}
          title={collapsed ? 'Expand' : 'Collapse'}
          onClick={() => onCollapsedChange(!collapsed)}
        >
          <span className="panel-frame__chevron" aria-hidden="true">
            ▾
          </span>
        </button>
      </div>
      {collapsed ? (
        <section className="card panel-frame__collapsed" aria-label={`${title} (collapsed)`}>
          <h2 className="card__title">{title}</h2>
        </section>
      ) : (
        <div id={bodyId} className="panel-frame__body">
          {children}
        </div>
      )}
    </div>
  );
}
