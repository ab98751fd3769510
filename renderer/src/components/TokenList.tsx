import type { ReactNode } from 'react';
import { formatDateTime, formatRelative } from '../lib/format';
import { ConfirmButton } from './ConfirmButton';

/** A token the desk keeps only a hash of: what the list shows of it. */
export interface ListedToken {
  id: string;
  label: string;
  tokenHint: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

/**
 * The active tokens of one kind (a source's ingest URLs, the MCP tokens) with a Revoke each: one list,
 * so both say the same about a token (its hint, when it was made and last used) and revoke alike.
 */
export function TokenList<T extends ListedToken>({
  tokens,
  name,
  describe,
  revokeQuestion,
  revoking,
  onRevoke,
}: {
  tokens: T[];
  /** The list's accessible name. */
  name: string;
  /** What else to say of a token, before its dates. */
  describe?: (token: T) => ReactNode;
  revokeQuestion: (token: T) => string;
  revoking: boolean;
  onRevoke: (token: T) => void;
}) {
  return (
    <ul className="scoped-urls__list" aria-label={name}>
      {tokens.map((t) => (
        <li key={t.id} className="scoped-urls__item">
          <span>
            <strong>{t.label}</strong> <code>{t.tokenHint}</code>
            <span className="muted small">
              {describe ? (
                <>
                  {' · '}
                  {describe(t)}
                </>
              ) : null}
              {' · '}created {formatDateTime(t.createdAt)}
              {' · '}
              {t.lastUsedAt ? `last used ${formatRelative(t.lastUsedAt)}` : 'never used'}
            </span>
          </span>
          <ConfirmButton label="Revoke" question={revokeQuestion(t)} confirmLabel="Revoke" disabled={revoking} onConfirm={() => onRevoke(t)} />
        </li>
      ))}
    </ul>
  );
}
