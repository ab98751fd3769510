import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { outputRunQuery } from './api';

/**
 * Says plainly when the built-in engine drafted an output, and what a model would add: users meet
 * that engine first, and its drafts arrange what the desk holds rather than write anew.
 */
export function EngineNote({ runId }: { runId: string }) {
  const run = useQuery(outputRunQuery(runId));
  if (run.data?.engine !== 'local') return null;
  return (
    <p className="output-engine-note small" data-testid="built-in-engine-note">
      <strong>Drafted by the built-in engine</strong>, offline and without a model: it arranges the task, its signals, memory and notes into this shape and cites each
      one, but writes no new prose and draws no conclusion the sources do not state. A model (<Link to="/settings/$section" params={{ section: 'engine' }}>Settings → AI engine</Link>) writes it in full
      sentences in your voice, weighs the sources against each other and says what they imply.
    </p>
  );
}
