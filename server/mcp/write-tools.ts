import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DeskError, invalid } from '../core/errors';
import type { Decision } from '../domain/artifacts/artifact-decisions';
import { defineTool, type ToolContext } from './define-tool';
import { lines, usd } from './results';
import { addNoteInput, addSignalInput, createTaskInput, decideInput, setLoopInput } from './schemas';

interface DecisionOutcome {
  status: Decision;
  decided: string[];
  /** Ids that name no output. */
  notFound: string[];
  /** Ids of outputs already approved or archived (left as they are). */
  alreadyDecided: string[];
}

/**
 * Decides each output through ArtifactService.decide (the API's single decision), in the tool's one
 * transaction. An unknown or already decided id is listed, as bulk calls list them, unless nothing
 * could be decided: then the first refusal is the answer and nothing changed.
 */
async function decideMany(ctx: ToolContext, to: Decision, ids: string[] | undefined, allReady: boolean | undefined): Promise<DecisionOutcome> {
  if ((ids === undefined) === (allReady !== true)) throw invalid(ids === undefined ? 'ids' : 'allReady', 'give the ids of the outputs, or allReady: true (not both)');
  if (ids === undefined) {
    const bulk = await ctx.services.artifacts.bulkDecide(to === 'approved' ? 'approve_all' : 'archive_all');
    return { status: to, decided: bulk.artifactIds, notFound: [], alreadyDecided: [] };
  }
  const outcome: DecisionOutcome = { status: to, decided: [], notFound: [], alreadyDecided: [] };
  let first: DeskError | null = null;
  for (const id of [...new Set(ids)]) {
    try {
      await ctx.services.artifacts.decide(id, to);
      outcome.decided.push(id);
    } catch (err) {
      // decideOne refuses before it writes, so the transaction holds only the decisions made.
      if (!(err instanceof DeskError) || (err.code !== 'artifact_not_found' && err.code !== 'artifact_decided')) throw err;
      first ??= err;
      (err.code === 'artifact_not_found' ? outcome.notFound : outcome.alreadyDecided).push(id);
    }
  }
  if (outcome.decided.length === 0 && first !== null) throw first;
  return outcome;
}

const decisionText = (verb: string) => (r: DecisionOutcome) =>
  [
    `${verb} ${r.decided.length} output(s)${r.decided.length ? `: ${r.decided.join(', ')}` : ''}.`,
    r.notFound.length ? `No output with id: ${r.notFound.join(', ')}.` : '',
    r.alreadyDecided.length ? `Already decided (left as they were): ${r.alreadyDecided.join(', ')}.` : '',
  ]
    .filter(Boolean)
    .join('\n');

const decisionNote = (verb: string) => (r: DecisionOutcome) =>
  r.decided.length === 1 ? { detail: `${verb} output ${r.decided[0]}`, entityType: 'artifact', entityId: r.decided[0] } : { detail: `${verb} ${r.decided.length} outputs` };

/** The tools that change the desk; a read-only token gets them disabled. */
export function registerWriteTools(server: McpServer, ctx: ToolContext): void {
  const s = ctx.services;

  defineTool(server, ctx, {
    name: 'approve_outputs',
    title: 'Approve outputs',
    description:
      'CHANGES THE DESK: approves ready outputs (the operator\'s decision, final: a decided output is never decided again). Give `ids` (one or many) or `allReady: true` for every output ready now. Each gets an activity row and the `artifact.approved` event (outbound webhooks fire).',
    input: decideInput,
    effect: 'change',
    hints: { destructiveHint: true, idempotentHint: false },
    run: ({ ids, allReady }) => decideMany(ctx, 'approved', ids, allReady),
    text: decisionText('Approved'),
    note: decisionNote('Approved'),
  });

  defineTool(server, ctx, {
    name: 'archive_outputs',
    title: 'Archive outputs',
    description:
      'CHANGES THE DESK: archives ready outputs (set aside without approval; final). Give `ids` (one or many) or `allReady: true` for every output ready now. Each gets an activity row and the `artifact.archived` event.',
    input: decideInput,
    effect: 'change',
    hints: { destructiveHint: true, idempotentHint: false },
    run: ({ ids, allReady }) => decideMany(ctx, 'archived', ids, allReady),
    text: decisionText('Archived'),
    note: decisionNote('Archived'),
  });

  defineTool(server, ctx, {
    name: 'add_signal',
    title: 'Add a signal',
    description: 'CHANGES THE DESK: files a new signal (something seen: news, a mention, a review, an alert...). The next loop cycle reads it and may turn it into tasks and outputs.',
    input: addSignalInput,
    effect: 'change',
    hints: { idempotentHint: false },
    run: ({ title, detail, kind, priority, sourceUrl }) => s.signals.create({ title, detail: detail ?? '', kind: kind ?? 'note', priority: priority ?? 'normal', sourceUrl: sourceUrl ?? null }),
    text: (sig) => `Filed signal ${sig.id}: ${sig.title} (${sig.kind}, ${sig.priority}).`,
    note: (sig) => ({ detail: `Filed signal ${sig.title}`, entityType: 'signal', entityId: sig.id }),
  });

  defineTool(server, ctx, {
    name: 'create_task',
    title: 'Create a task',
    description: 'CHANGES THE DESK: creates a queued task; the loop works on it in its next cycles and produces outputs for review.',
    input: createTaskInput,
    effect: 'change',
    hints: { idempotentHint: false },
    run: (input) => s.tasks.create(input),
    text: (t) => `Created task ${t.id}: ${t.title} (${t.status}).`,
    note: (t) => ({ detail: `Created task ${t.title}`, entityType: 'task', entityId: t.id }),
  });

  defineTool(server, ctx, {
    name: 'add_note',
    title: 'Add an operator note',
    description: "CHANGES THE DESK: adds an operator note to a task. The next cycle follows it as the operator's direction; a task waiting for input goes back to the queue.",
    input: addNoteInput,
    effect: 'change',
    hints: { idempotentHint: false },
    run: ({ taskId, text }) => s.tasks.postNote(taskId, text),
    text: (p) => `Note added to ${p.task.title} (${p.task.id}); the task is ${p.task.status}.`,
    note: (p) => ({ detail: `Added a note to ${p.task.title}`, entityType: 'task', entityId: p.task.id }),
  });

  defineTool(server, ctx, {
    name: 'run_cycle_now',
    title: 'Run a cycle now',
    description:
      "CHANGES THE DESK AND SPENDS MONEY: runs one loop cycle now (the Run now button), whatever the loop's state but never past the daily cost cap, and answers with its run record once it has finished: what it read and produced (tasks, outputs, memory) and what it cost. The configured model provider is called.",
    input: {},
    effect: 'long',
    hints: { idempotentHint: false, openWorldHint: true },
    run: () => s.loop.runNow(),
    text: (r) =>
      `Cycle ${r.id} ${r.status}${r.errorMessage ? `: ${r.errorMessage}` : ''}: ${usd(r.estimatedCostUsd)}; outputs:\n${lines(r.produced.artifactIds, 'none')}\nnew tasks: ${r.produced.createdTaskIds.join(', ') || 'none'}.`,
    note: (r) => ({ detail: `Ran cycle ${r.id} (${r.status})`, entityType: 'run', entityId: r.id }),
  });

  defineTool(server, ctx, {
    name: 'set_loop_state',
    title: 'Pause or resume the loop',
    description: 'CHANGES THE DESK: sets the loop on (cycles run on schedule), paused or off. Any state set here clears a scheduled resume.',
    input: setLoopInput,
    effect: 'change',
    hints: { idempotentHint: true },
    run: ({ loopState }) => s.workspace.setLoopState(loopState),
    text: (p) => `The loop is ${p.loopState}.`,
    note: (p) => ({ detail: `Set the loop ${p.loopState}` }),
  });
}
