/**
 * The built-in `local` engine: offline, no key, deterministic (same input, same decisions; time
 * only from input.now). It triages new signals, works the highest-ranked tasks that need work into
 * cited markdown drafts, moves tasks along, keeps standing direction from notes as preference
 * memory, and counts the tokens of the prompt it would have sent and the output it wrote.
 *
 * Order of work: the open tasks in the runner's rank order, then the new tasks of this cycle
 * (focus-tagged first, then by priority, then in the order their first signal arrived).
 */
import { DEFAULT_MODEL, countTokens, loadTokenizer } from '../usage';
import { SYSTEM_INSTRUCTIONS, signalBlock, taskSection } from '../prompt';
import { CycleMeter, usd } from '../meter';
import { exactCost } from '../pricing';
import { CycleDoesNotFitError, type CycleDecisions, type CycleInput, type Engine, type EngineMemory, type EngineTask, type TaskUpdate, type TokenUsage, type WorkLogEntry } from '../types';
import { composeDraft, type WorkItem } from './draft';
import { preferencesFromNotes } from './preferences';
import { words } from './text';
import { timeSlicer } from '../../core/time-slicer';
import { effectivePriority, priorityRank, triage, triageRulesText, triageSummary, type PlannedTask } from './triage';

/** Memory entries retrieved per worked task. */
export const MEMORY_PER_TASK = 5;
/** A task with no signals and no notes needs at least this many meaningful words in its title, summary, goal and context to be drafted. */
export const MIN_BRIEF_WORDS = 8;

const TRIAGE_INSTRUCTIONS = 'Triage this signal: attach it to the related open task, or open a new task for it.';


function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function quoteTitles(titles: string[]): string {
  const shown = titles.slice(0, 2).map((t) => `"${t.length > 80 ? `${t.slice(0, 79)}…` : t}"`);
  return titles.length > 2 ? `${shown.join(', ')} and ${titles.length - 2} more` : shown.join(' and ');
}

function fromExisting(t: EngineTask, attached: EngineTask['signals']): WorkItem {
  const since = t.latestArtifact?.createdAt;
  const fresh = new Set([...t.signals.filter((s) => since === undefined || s.createdAt > since).map((s) => s.id), ...attached.map((s) => s.id)]);
  return {
    ref: t.id, isNew: false, title: t.title, summary: t.summary, goal: t.goal, context: t.context, kind: t.kind,
    deliverableType: t.deliverableType, priority: t.priority, status: t.status, tags: t.tags,
    signals: [...t.signals, ...attached], freshSignalIds: fresh, notes: t.notes, latestArtifact: t.latestArtifact,
  };
}

function fromPlanned(p: PlannedTask): WorkItem {
  return {
    ref: p.ref, isNew: true, title: p.title, summary: p.summary, goal: '', context: '', kind: p.kind,
    deliverableType: p.deliverableType, priority: p.priority, status: 'queued', tags: p.tags,
    signals: p.signals, freshSignalIds: new Set(p.signals.map((s) => s.id)), notes: [], latestArtifact: null,
  };
}

/** The memory query of a task: what it is about, in its own words and its signals'. */
export function memoryQuery(item: WorkItem): string {
  const text = [item.title, item.tags.join(' ').replace(/-/g, ' '), ...item.notes.map((n) => n.text), ...item.signals.slice(-5).map((s) => s.title), item.summary, item.goal].join(' ');
  return words(text).slice(0, 24).join(' ');
}

export class LocalEngine implements Engine {
  readonly kind = 'local' as const;
  // Counted on the first cycle (the tokenizer loads then), once.
  private fixed: { system: number; triage: number } | null = null;

  constructor(readonly model: string = DEFAULT_MODEL) {}

  check(): Promise<string> {
    return Promise.resolve(`Built-in engine ready: offline, no key needed; its work is priced as ${this.model} would charge.`);
  }

  /** Whether the cycle has anything besides new signals to do (an open task it may work or move). */
  private anyWork(input: CycleInput): boolean {
    return input.tasks.some((t) => t.workable);
  }

  private noRoom(meter: CycleMeter, usage: TokenUsage, what: string): CycleDoesNotFitError {
    const need = meter.worstCase(usage.inputTokens, usage.outputTokens);
    return new CycleDoesNotFitError(
      `Not even the smallest cycle fits in what is left of today's cost cap: ${what} (${usage.inputTokens.toLocaleString('en-US')} prompt and ${usage.outputTokens.toLocaleString('en-US')} answer tokens at ${meter.budget.price.model}'s price) would cost ${usd(need)}, and ${usd(Math.max(0, meter.left()))} is left. Cycles resume tomorrow, or when the cap is raised.`,
    );
  }

  async runCycle(input: CycleInput): Promise<CycleDecisions> {
    await loadTokenizer();
    this.fixed ??= { system: countTokens(SYSTEM_INSTRUCTIONS), triage: countTokens(TRIAGE_INSTRUCTIONS) };
    const { system: systemTokens, triage: triageTokens } = this.fixed;
    const usageByTask: Record<string, TokenUsage> = {};
    const charge = (ref: string, inputTokens: number, outputTokens: number): void => {
      const u = (usageByTask[ref] ??= { inputTokens: 0, outputTokens: 0 });
      u.inputTokens += inputTokens;
      u.outputTokens += outputTokens;
    };

    // The cap as a ceiling: every charge below must fit in what is left of it. Triage first: when all
    // of it does not fit, the oldest signals that do are taken in and the rest wait for tomorrow.
    const meter = new CycleMeter(input.budget);
    const slice = timeSlicer();
    let signals = input.newSignals;
    let tri = await triage(input.tasks, signals, input.focusTags);
    let triageCharges: { ref: string; usage: TokenUsage }[] = [];
    for (;;) {
      const titleOf = new Map<string, string>([...input.tasks.map((t) => [t.id, t.title] as const), ...tri.newTasks.map((p) => [p.ref, p.title] as const)]);
      // Triage cost: each signal with the title of the task it went to, and a one-line decision.
      triageCharges = [];
      for (const s of signals) {
        await slice();
        const ref = tri.placement.get(s.id) ?? '';
        const prompt = `${signalBlock('S1', s)}\ncandidate: ${titleOf.get(ref) ?? ''}`;
        triageCharges.push({ ref, usage: { inputTokens: triageTokens + countTokens(prompt), outputTokens: countTokens(`{"signalId":"${s.id}","taskRef":"${ref}"}`) } });
      }
      let fitting = 0;
      const sum: TokenUsage = { inputTokens: 0, outputTokens: 0 };
      for (const c of triageCharges) {
        sum.inputTokens += c.usage.inputTokens;
        sum.outputTokens += c.usage.outputTokens;
        if (!meter.affords(sum)) break;
        fitting += 1;
      }
      if (fitting === signals.length) break;
      if (fitting === 0 && !this.anyWork(input)) throw this.noRoom(meter, triageCharges[0].usage, 'triaging one new signal');
      signals = signals.slice(0, fitting);
      tri = await triage(input.tasks, signals, input.focusTags);
    }
    for (const c of triageCharges) {
      charge(c.ref, c.usage.inputTokens, c.usage.outputTokens);
      meter.bill(c.usage);
    }
    const leftWaiting = input.newSignals.length - signals.length;

    const taskUpdates: TaskUpdate[] = [];
    for (const t of input.tasks) {
      const attached = tri.attached.get(t.id);
      if (!attached) continue;
      const update: TaskUpdate = { taskId: t.id, addSignalIds: attached.map((s) => s.id) };
      const top = attached.reduce((p, s) => (priorityRank(effectivePriority(s)) > priorityRank(p) ? effectivePriority(s) : p), t.priority ?? 'normal');
      if (priorityRank(top) > priorityRank(t.priority)) update.priority = top;
      taskUpdates.push(update);
    }

    const focus = new Set(input.focusTags);
    const newOrder = tri.newTasks
      .map((p, i) => ({ p, i, focused: p.tags.some((tag) => focus.has(tag)) ? 1 : 0 }))
      .sort((a, b) => b.focused - a.focused || priorityRank(b.p.priority) - priorityRank(a.p.priority) || a.i - b.i)
      .map((x) => x.p);
    const items: { item: WorkItem; workable: boolean; hasNewInput: boolean; attachedTitles: string[] }[] = [
      ...input.tasks.map((t) => {
        const attached = tri.attached.get(t.id) ?? [];
        return { item: fromExisting(t, attached), workable: t.workable, hasNewInput: t.hasNewInput || attached.length > 0 || t.notes.length > 0, attachedTitles: attached.map((s) => s.title) };
      }),
      ...newOrder.map((p) => ({ item: fromPlanned(p), workable: true, hasNewInput: true, attachedTitles: p.signals.map((s) => s.title) })),
    ];

    const decisions: CycleDecisions = {
      newTasks: tri.newTasks.map((p) => ({ ref: p.ref, title: p.title, summary: p.summary, kind: p.kind, deliverableType: p.deliverableType, priority: p.priority, tags: p.tags, signalIds: p.signals.map((s) => s.id) })),
      taskUpdates,
      artifacts: [],
      memory: [],
      workLog: [],
      triagedSignalIds: signals.map((s) => s.id),
      explanation: signals.length > 0 ? `${triageSummary(tri, signals)} ${triageRulesText()}` : undefined,
      usage: { inputTokens: 0, outputTokens: 0 },
      usageByTask,
    };
    const seenPreferences = new Set<string>();
    let budget = input.workBudget;

    let capReached = leftWaiting > 0;
    let cheapest: TokenUsage | null = null;
    /** Work that does not fit what is left: remembered for the message when nothing fits at all. */
    const refuse = (usage: TokenUsage): void => {
      capReached = true;
      if (cheapest === null || exactCost(input.budget.price, usage) < exactCost(input.budget.price, cheapest)) cheapest = usage;
    };
    /** Charges the work when it fits what is left of the cap; false (nothing charged) when it does not. */
    const afford = (ref: string, usage: TokenUsage): boolean => {
      if (!meter.affords(usage)) {
        refuse(usage);
        return false;
      }
      meter.bill(usage);
      charge(ref, usage.inputTokens, usage.outputTokens);
      return true;
    };
    const log = (item: WorkItem, entry: WorkLogEntry, promptText: string | null): void => {
      // A status decision reads the task as a model would, and writes its work-log line.
      if (promptText !== null && !afford(item.ref, { inputTokens: systemTokens + countTokens(promptText), outputTokens: countTokens(entry.entry) })) return;
      decisions.workLog.push(entry);
    };
    const section = (item: WorkItem, memory: EngineMemory[]): string =>
      taskSection({ ...item, memory, latestOutput: item.latestArtifact });

    for (const { item, workable, hasNewInput, attachedTitles } of items) {
      if (input.abortSignal?.aborted) break;
      const arrived = attachedTitles.length > 0 ? `${item.isNew ? 'Created from' : 'Attached'} ${plural(attachedTitles.length, 'new signal')} (${quoteTitles(attachedTitles)})` : '';
      if (!workable) {
        if (arrived) log(item, { taskRef: item.ref, entry: `${arrived}; not worked: blocked until its blockers are done.`, consumedNoteIds: [] }, null);
        continue;
      }
      const latest = item.latestArtifact;
      if (!hasNewInput && latest) {
        if (latest.status === 'approved') {
          log(item, { taskRef: item.ref, entry: `Delivered: output v${latest.version} ("${latest.title}") was approved and nothing new arrived since; marked done.`, consumedNoteIds: [], status: 'done' }, section(item, []));
        } else if (latest.status === 'archived' && item.status !== 'needs_input') {
          log(item, { taskRef: item.ref, entry: `Needs input: output v${latest.version} was archived and nothing new arrived since. Add an operator note saying what to change, and the next cycle redrafts it.`, consumedNoteIds: [], status: 'needs_input' }, section(item, []));
        }
        continue;
      }
      const briefWords = words(`${item.title} ${item.summary} ${item.goal} ${item.context}`).length;
      if (item.signals.length === 0 && item.notes.length === 0 && briefWords < MIN_BRIEF_WORDS) {
        if (item.status !== 'needs_input') {
          const entry = `Needs input: no signals, no operator notes, and the title, summary, goal and context give only ${plural(briefWords, 'meaningful word')} (at least ${MIN_BRIEF_WORDS} needed to draft from). Add an operator note saying what the output should cover, or attach a signal.`;
          log(item, { taskRef: item.ref, entry, consumedNoteIds: [], status: 'needs_input' }, section(item, []));
        }
        continue;
      }
      if (budget <= 0) {
        if (arrived) log(item, { taskRef: item.ref, entry: `${arrived}; not worked this cycle: the work budget went to higher-ranked tasks.`, consumedNoteIds: [] }, null);
        continue;
      }
      budget -= 1;
      const memory = await input.searchMemory(item.ref, memoryQuery(item), MEMORY_PER_TASK);
      const draft = composeDraft(item, memory, input.now, input.timezone);
      const draftPrompt = section(item, memory);
      const draftUsage = { inputTokens: systemTokens + countTokens(draftPrompt), outputTokens: countTokens(`${draft.title}\n${draft.content}`) };
      if (!meter.affords(draftUsage)) {
        refuse(draftUsage);
        budget = 0;
        decisions.workLog.push({ taskRef: item.ref, entry: `${arrived ? `${arrived}; n` : 'N'}ot worked this cycle: what is left of today's cost cap does not pay for its draft.`, consumedNoteIds: [] });
        continue;
      }
      decisions.artifacts.push({ taskRef: item.ref, kind: draft.kind, title: draft.title, content: draft.content, signalIds: draft.signalIds, memoryIds: draft.memoryIds });
      const prefs = preferencesFromNotes(item.notes, item.title, item.tags, seenPreferences);
      decisions.memory.push(...prefs);
      const parts = [`${arrived ? `${arrived}. ` : ''}Drafted ${draft.kind} v${draft.version} citing ${plural(draft.signalIds.length, 'signal')} and ${draft.memoryIds.length} memory ${draft.memoryIds.length === 1 ? 'entry' : 'entries'}.`];
      if (item.notes.length > 0) parts.push(`Followed ${plural(item.notes.length, 'operator note')} as direction.`);
      if (prefs.length > 0) parts.push(`Kept ${plural(prefs.length, 'standing preference')} in memory.`);
      const entry: WorkLogEntry = { taskRef: item.ref, entry: parts.join(' '), consumedNoteIds: item.notes.map((n) => n.id) };
      if (item.status !== 'in_progress') entry.status = 'in_progress';
      decisions.workLog.push(entry);
      // Checked above for the draft; the work-log line and the preferences it keeps come with it.
      const output = `${draft.title}\n${draft.content}\n${entry.entry}\n${prefs.map((p) => p.content).join('\n')}`;
      const usage = { inputTokens: systemTokens + countTokens(draftPrompt), outputTokens: countTokens(output) };
      meter.bill(usage);
      charge(item.ref, usage.inputTokens, usage.outputTokens);
    }
    const didSomething = signals.length > 0 || decisions.artifacts.length > 0 || decisions.workLog.some((w) => w.status !== undefined);
    if (capReached && !didSomething) throw this.noRoom(meter, cheapest ?? triageCharges[0]?.usage ?? { inputTokens: systemTokens, outputTokens: 0 }, 'the cheapest piece of work');
    // New tasks not worked this cycle still get their creation line.
    const logged = new Set(decisions.workLog.map((w) => w.taskRef));
    for (const p of tri.newTasks) {
      if (!logged.has(p.ref)) decisions.workLog.push({ taskRef: p.ref, entry: `Created from ${plural(p.signals.length, 'new signal')} (${quoteTitles(p.signals.map((s) => s.title))}); queued for a later cycle.`, consumedNoteIds: [] });
    }
    for (const u of Object.values(usageByTask)) {
      decisions.usage.inputTokens += u.inputTokens;
      decisions.usage.outputTokens += u.outputTokens;
    }
    return decisions;
  }
}
