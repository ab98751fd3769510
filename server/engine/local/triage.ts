/**
 * Triage of the local engine: every new signal goes onto the most related open task (weighted
 * word overlap over the task's title, summary, tags and attached signal titles), or into a new
 * task; closely related new signals of the same cycle share one new task.
 */
import { MAX_TASK_SUMMARY, MAX_TASK_TAGS, MAX_TASK_TITLE, type SignalKind, type SignalPriority, type TaskDeliverableType, type TaskKind, type TaskPriority } from '../../core/vocabulary';
import { excerpt } from '../prompt';
import type { EngineSignal, EngineTask } from '../types';
import { timeSlicer } from '../../core/time-slicer';
import { OverlapIndex, words } from './text';

/** A signal joins a task when the weighted overlap reaches this and at least MIN_SHARED words are shared. */
export const RELATED_THRESHOLD = 0.25;
export const MIN_SHARED_WORDS = 2;

const PRIORITY_RANK: Record<TaskPriority, number> = { low: 0, normal: 1, high: 2, urgent: 3 };
export const priorityRank = (p: TaskPriority | SignalPriority | null): number => (p === null ? 1 : PRIORITY_RANK[p]);

/** What a task made from a signal of each kind is, and what it produces. */
export const KIND_MAP: Record<SignalKind, { kind: TaskKind; deliverableType: TaskDeliverableType; verb: string }> = {
  news: { kind: 'research', deliverableType: 'brief', verb: 'Assess' },
  mention: { kind: 'outreach', deliverableType: 'draft', verb: 'Respond to mention' },
  review: { kind: 'review', deliverableType: 'draft', verb: 'Answer review' },
  message: { kind: 'outreach', deliverableType: 'email', verb: 'Reply' },
  alert: { kind: 'ops', deliverableType: 'checklist', verb: 'Investigate' },
  metric: { kind: 'analysis', deliverableType: 'report', verb: 'Analyse' },
  note: { kind: 'planning', deliverableType: 'plan', verb: 'Follow up' },
  other: { kind: 'other', deliverableType: 'summary', verb: 'Look into' },
};

const VERB_PREFIXES = Object.values(KIND_MAP).map((m) => `${m.verb}: `);
/** A triaged task's title without the verb triage put in front ("Assess: X" -> "X"); other titles as they are. */
export const subjectOf = (title: string): string => {
  const prefix = VERB_PREFIXES.find((p) => title.startsWith(p));
  return prefix && title.length > prefix.length ? title.slice(prefix.length) : title;
};

export const signalWords = (s: EngineSignal): string[] => words(`${s.title} ${excerpt(s.detail, 300)}`);

export const taskWords = (t: EngineTask): string[] =>
  words([t.title, t.summary, t.tags.join(' ').replace(/-/g, ' '), ...t.signals.map((s) => s.title)].join(' '));

/** Focus tags the text speaks of: every word of the tag appears in it (a tag of stop words only: the tag itself). */
export function matchingTags(focusTags: readonly string[], textWords: ReadonlySet<string>, rawText: string): string[] {
  const out: string[] = [];
  const lower = rawText.toLowerCase();
  for (const tag of focusTags) {
    const parts = words(tag.replace(/-/g, ' '));
    const hit = parts.length > 0 ? parts.every((p) => textWords.has(p)) : lower.includes(tag);
    if (hit) out.push(tag);
    if (out.length >= MAX_TASK_TAGS) break;
  }
  return out;
}

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

export interface PlannedTask {
  ref: string;
  signals: EngineSignal[];
  title: string;
  summary: string;
  kind: TaskKind;
  deliverableType: TaskDeliverableType;
  priority: TaskPriority;
  tags: string[];
}

export interface TriageResult {
  /** New signals attached to existing tasks, by task id (in triage order). */
  attached: Map<string, EngineSignal[]>;
  newTasks: PlannedTask[];
  /** Where each signal went (task id or new-task ref). */
  placement: Map<string, string>;
}

function planTask(ref: string, signals: EngineSignal[], focusTags: readonly string[]): PlannedTask {
  const first = signals[0];
  const map = KIND_MAP[first.kind];
  let priority: TaskPriority = first.priority;
  for (const s of signals) if (priorityRank(s.priority) > priorityRank(priority)) priority = s.priority;
  const detail = first.detail.trim() === '' ? first.title : excerpt(first.detail, 1200);
  const related = signals.slice(1).map((s) => `- ${clip(s.title, 160)}`);
  const summary = related.length > 0 ? `${detail}\n\nRelated signals:\n${related.join('\n')}` : detail;
  const text = signals.map((s) => `${s.title} ${s.detail}`).join(' ');
  return {
    ref,
    signals,
    title: clip(`${map.verb}: ${first.title.trim()}`, MAX_TASK_TITLE),
    summary: clip(summary, MAX_TASK_SUMMARY),
    kind: map.kind,
    deliverableType: map.deliverableType,
    priority,
    tags: matchingTags(focusTags, new Set(words(text)), text),
  };
}

export async function triage(tasks: readonly EngineTask[], newSignals: readonly EngineSignal[], focusTags: readonly string[]): Promise<TriageResult> {
  // Yield by elapsed time, not by item count: word extraction of a long task or signal is uneven.
  const slice = timeSlicer();
  const index = new OverlapIndex();
  const tWords: ReturnType<typeof taskWords>[] = [];
  for (const t of tasks) {
    tWords.push(taskWords(t));
    await slice();
  }
  const sWords: ReturnType<typeof signalWords>[] = [];
  for (const s of newSignals) {
    sWords.push(signalWords(s));
    await slice();
  }
  for (const w of tWords) index.observe(w);
  for (const w of sWords) index.observe(w);
  // Targets 0..tasks.length-1 are the open tasks (in rank order), later ones the new tasks.
  for (const w of tWords) index.add(w);
  const groups: EngineSignal[][] = [];
  const attached = new Map<string, EngineSignal[]>();
  const placement = new Map<string, string>();
  for (let i = 0; i < newSignals.length; i++) {
    await slice();
    const signal = newSignals[i];
    const hit = index.best(sWords[i], RELATED_THRESHOLD, MIN_SHARED_WORDS);
    if (hit && hit.target < tasks.length) {
      const taskId = tasks[hit.target].id;
      const list = attached.get(taskId) ?? [];
      list.push(signal);
      attached.set(taskId, list);
      placement.set(signal.id, taskId);
    } else if (hit) {
      const group = hit.target - tasks.length;
      groups[group].push(signal);
      placement.set(signal.id, `new-${group + 1}`);
    } else {
      // Founding signal of a new task: later signals of this cycle can join it.
      index.add(sWords[i]);
      groups.push([signal]);
      placement.set(signal.id, `new-${groups.length}`);
    }
  }
  const newTasks = groups.map((g, i) => planTask(`new-${i + 1}`, g, focusTags));
  return { attached, newTasks, placement };
}
