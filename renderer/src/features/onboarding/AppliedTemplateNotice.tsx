import { Link } from '@tanstack/react-router';
import { useAppliedTemplate } from './applied-store';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Where the onboarding flow lands (Memory, Signals): what the template just added and skipped,
 * with the way to the other half. Shown once per apply, until dismissed.
 */
export function AppliedTemplateNotice({ on }: { on: 'memory' | 'signals' }) {
  const last = useAppliedTemplate((s) => s.last);
  const dismiss = useAppliedTemplate((s) => s.dismiss);
  if (last === null) return null;
  const { added, skipped } = last;
  const skippedCount = skipped.memories.length + skipped.signals.length;
  return (
    <div className="notice notice--success onboarding-notice" role="status">
      <p>
        <strong>{last.name}</strong> applied: added {plural(added.memories.length, 'memory', 'memories')} and {plural(added.signals.length, 'signal', 'signals')}
        {skippedCount > 0 ? `; ${skippedCount} already on the desk ${skippedCount === 1 ? 'was' : 'were'} skipped` : ''}.{' '}
        {on === 'memory' && added.signals.length > 0 ? <Link to="/signals">See the signals</Link> : null}
        {on === 'signals' && added.memories.length > 0 ? <Link to="/memory">See the memories</Link> : null}
      </p>
      {added.memories.length > 0 && on === 'memory' ? (
        <ul className="onboarding-notice__list" aria-label="Memories added">
          {added.memories.map((e) => (
            <li key={e.id}>
              <Link to="/memory/$memoryId" params={{ memoryId: e.id }}>
                {e.title}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {added.signals.length > 0 && on === 'signals' ? (
        <ul className="onboarding-notice__list" aria-label="Signals added">
          {added.signals.map((e) => (
            <li key={e.id}>{e.title}</li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="button button--small button--ghost" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
