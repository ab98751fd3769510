/**
 * The chat messages of one `openai` cycle, and what each task's share of them is (for the split
 * of the response's usage). A prompt is bounded: at most MAX_PROMPT_SIGNALS new signals (the
 * rest wait for the next cycle, untriaged) and MAX_PROMPT_TASKS open tasks, in the runner's order.
 */
import { SYSTEM_INSTRUCTIONS, fenced, signalBlock, taskSection } from '../prompt';
import type { CycleInput, EngineMemory, EngineSignal, EngineTask } from '../types';
import { countTokens } from '../usage';

export const MAX_PROMPT_SIGNALS = 100;
export const MAX_PROMPT_TASKS = 60;
export const MEMORY_PER_TASK = 5;

const ANSWER_INSTRUCTIONS = [
  'Answer with one JSON object following the given schema:',
  '- newTasks: tasks you open for new signals; ref "new-1", "new-2" ...; signalIds are the new signals it takes in.',
  '- taskUpdates: for existing tasks (taskId from the prompt): addSignalIds for new signals that belong to it; status and priority null unless they change.',
  '- artifacts: the drafts you wrote (taskRef is a task id or a new-task ref); at most the work budget; only tasks marked "work candidate" or new tasks;',
  '  cite signals [S#] and memory [M#] in the markdown and list their ids in signalIds / memoryIds (memory only from that task\'s own list).',
  '- memory: preference entries for standing direction found in operator notes (importance 1-10 or null).',
  '- workLog: one short entry per task you touched; consumedNoteIds are the note ids you followed; status when the task moves (needs_input, in_progress, done).',
  '- triagedSignalIds: every new signal you handled (attached, opened a task for, or judged noise).',
  'A task whose latest output is approved and that has nothing new is delivered: move it to done.',
].join('\n');

/** Whether an open task needs work: no output yet, or something new since its latest output. */
export const needsWork = (t: EngineTask): boolean => t.workable && (t.latestArtifact === null || t.hasNewInput || t.notes.length > 0);

export interface PromptPlan {
  signals: EngineSignal[];
  tasks: EngineTask[];
  /** Tasks the model may work (memory retrieved for them), in rank order. */
  candidates: Set<string>;
  /** Memory entries shown per candidate (of those retrieved). */
  memoryPerTask: number;
}

/** How big a prompt may be: the full plan, or a smaller one when the budget asks for it (budget.ts). */
export interface PlanSize {
  signals: number;
  tasks: number;
  candidates: number;
  memoryPerTask: number;
}

/** The plan as big as the input and the prompt's limits allow. */
export function fullSize(input: CycleInput): PlanSize {
  const ranked = input.tasks.slice(0, MAX_PROMPT_TASKS);
  return {
    signals: Math.min(MAX_PROMPT_SIGNALS, input.newSignals.length),
    tasks: ranked.length,
    candidates: Math.min(Math.max(0, input.workBudget), ranked.filter(needsWork).length),
    memoryPerTask: MEMORY_PER_TASK,
  };
}

export function planPrompt(input: CycleInput, size: PlanSize = fullSize(input)): PromptPlan {
  // Candidates first, so a smaller prompt keeps the tasks it works.
  const ranked = input.tasks.slice(0, MAX_PROMPT_TASKS);
  const candidateTasks = ranked.filter(needsWork).slice(0, size.candidates);
  const ids = new Set(candidateTasks.map((t) => t.id));
  const others = ranked.filter((t) => !ids.has(t.id)).slice(0, Math.max(0, size.tasks - candidateTasks.length));
  const shown = new Set([...ids, ...others.map((t) => t.id)]);
  return { signals: input.newSignals.slice(0, size.signals), tasks: ranked.filter((t) => shown.has(t.id)), candidates: ids, memoryPerTask: size.memoryPerTask };
}

/** The memory query of a task: its title, tags, notes and latest signal titles. */
export function memoryQuery(t: EngineTask): string {
  return [t.title, t.tags.join(' '), ...t.notes.map((n) => n.text), ...t.signals.slice(-5).map((s) => s.title), t.summary].join(' ').slice(0, 2000);
}

export interface BuiltPrompt {
  system: string;
  user: string;
  /** Prompt tokens of each task's own section and of each new signal's block (usage split weights). */
  taskTokens: Map<string, number>;
  signalTokens: Map<string, number>;
}

export function buildPrompt(input: CycleInput, plan: PromptPlan, memoryByTask: Map<string, EngineMemory[]>, schemaLine: string | null = null): BuiltPrompt {
  const taskTokens = new Map<string, number>();
  const signalTokens = new Map<string, number>();
  const head = [
    `Cycle time: ${input.now} (workspace timezone ${input.timezone}).`,
    `Focus tags (raise priority of matching work): ${input.focusTags.length > 0 ? input.focusTags.join(', ') : 'none'}.`,
    `Work budget: draft outputs for at most ${input.workBudget} tasks, highest ranked first (tasks are listed in rank order).`,
  ];
  const signalLines = plan.signals.map((s, i) => {
    const block = signalBlock(`N${i + 1}`, s);
    signalTokens.set(s.id, countTokens(block));
    return block;
  });
  const taskLines = plan.tasks.map((t) => {
    const candidate = plan.candidates.has(t.id);
    const flags = [candidate ? 'work candidate' : t.workable ? 'not a work candidate this cycle' : 'blocked: do not work', t.hasNewInput ? 'has new input' : null].filter(Boolean).join('; ');
    const memory = (memoryByTask.get(t.id) ?? []).slice(0, plan.memoryPerTask);
    const section = `${taskSection({ ref: t.id, ...t, memory, latestOutput: t.latestArtifact })}\n(${flags})`;
    taskTokens.set(t.id, countTokens(section));
    return section;
  });
  const user = [
    ...head,
    '',
    `# New signals (${plan.signals.length})`,
    ...(signalLines.length > 0 ? fenced(signalLines) : ['none']),
    '',
    `# Open tasks (${plan.tasks.length})`,
    ...(taskLines.length > 0 ? taskLines : ['none']),
  ].join('\n');
  const system = [SYSTEM_INSTRUCTIONS, ANSWER_INSTRUCTIONS, ...(schemaLine === null ? [] : [schemaLine])].join('\n\n');
  return { system, user, taskTokens, signalTokens };
}

/**
 * Splits `total` into integer parts proportional to `weights` (largest remainder, ties by key
 * order), so the parts always sum to `total`. No weight at all: nothing is split.
 */
export function splitProportionally(total: number, weights: Map<string, number>): Map<string, number> {
  const sum = [...weights.values()].reduce((a, b) => a + b, 0);
  const out = new Map<string, number>();
  if (sum <= 0 || total <= 0) {
    for (const k of weights.keys()) out.set(k, 0);
    return out;
  }
  const parts = [...weights.entries()].map(([k, w]) => ({ k, exact: (total * w) / sum }));
  let given = 0;
  for (const p of parts) {
    out.set(p.k, Math.floor(p.exact));
    given += Math.floor(p.exact);
  }
  const byRemainder = [...parts].sort((a, b) => b.exact - Math.floor(b.exact) - (a.exact - Math.floor(a.exact)));
  for (let i = 0; given < total; i++, given++) out.set(byRemainder[i].k, out.get(byRemainder[i].k)! + 1);
  return out;
}
