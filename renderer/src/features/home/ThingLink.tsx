import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/** A thing of the desk (from an activity row, a sample or a reaction) and the page it lives on. */
export type ThingKind = 'task' | 'artifact' | 'memory' | 'source' | 'signal' | 'run' | 'comment' | (string & {});

/**
 * A link to a thing's page: tasks, outputs, memory entries and sources have their own URL; signals
 * and cycles open their list; a comment opens its task. Anything else is plain text.
 */
export function ThingLink({ kind, id, taskId, children }: { kind: ThingKind | null; id: string | null; taskId?: string | null; children: ReactNode }) {
  if (kind === 'task' && id) return <Link to="/tasks/$taskId" params={{ taskId: id }}>{children}</Link>;
  if (kind === 'comment' && taskId) return <Link to="/tasks/$taskId" params={{ taskId }}>{children}</Link>;
  if (kind === 'artifact' && id) return <Link to="/outputs/$artifactId" params={{ artifactId: id }}>{children}</Link>;
  if (kind === 'memory' && id) return <Link to="/memory/$memoryId" params={{ memoryId: id }}>{children}</Link>;
  if (kind === 'source' && id) return <Link to="/sources/$sourceId" params={{ sourceId: id }}>{children}</Link>;
  if (kind === 'signal') return <Link to="/signals">{children}</Link>;
  if (kind === 'run') return <Link to="/runs">{children}</Link>;
  return <span>{children}</span>;
}
