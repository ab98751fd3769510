import type { ReactNode } from 'react';

/** The header over a row's action buttons: empty on screen, named for screen readers. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span className="sr-only">Actions</span>
    </th>
  );
}

/** A row's action buttons, with the message of the last action's failure below them. */
export function RowActions({ error, children }: { error: Error | null; children: ReactNode }) {
  return (
    <td className="row-actions">
      <div className="row-actions__buttons">{children}</div>
      {error ? <p className="row-actions__status is-error">{error.message}</p> : null}
    </td>
  );
}
