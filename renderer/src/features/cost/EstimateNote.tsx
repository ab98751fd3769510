import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { engineSettingsQuery } from '../settings/engine-api';

/**
 * Under cost figures: with the built-in engine nothing is paid, so the figures are what the
 * configured model would have charged for the same tokens. Says so, and which model; nothing for
 * an OpenAI-compatible engine, whose figures are what it is charged.
 */
export function EstimateNote({ className = 'small muted' }: { className?: string }) {
  const engine = useQuery(engineSettingsQuery());
  if (engine.data?.engine !== 'local') return null;
  const { model, source } = engine.data.price;
  return (
    <p className={className} data-testid="cost-estimate-note">
      Estimated: what {model} would charge for the built-in engine&apos;s work{source === 'unknown' ? ' (no price known for it: counted as $0)' : ''}. The built-in engine itself costs nothing.{' '}
      <Link to="/settings/$section" params={{ section: 'engine' }}>
        Change the model
      </Link>
    </p>
  );
}
