/**
 * Triage of the local engine: every new signal goes onto the most related open task (weighted
 * word overlap over the task's title, summary, tags and attached signal titles), or into a new
 * task; closely related new signals of the same cycle share one new task, and so do signals of
 * one source about one topic within a window (a feed's release notes of one product). What an
 * item says can raise its priority (an incident, a security issue, a deprecation, a price change),
 * and such an item is not folded into a group of ordinary ones.
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

/** An item that reads as more pressing still joins a group this close to it (the same story told twice). */
export const SAME_STORY_SCORE = 0.3;

/** Signals of one source within this many hours of a group's first signal, about one topic, share its task. */
export const SOURCE_GROUP_WINDOW_HOURS = 72;

/** What an item says that makes it more pressing than its source's default priority, first match wins. */
export const PRIORITY_RULES: readonly { priority: TaskPriority; what: string; pattern: RegExp }[] = [
  { priority: 'urgent', what: 'an incident or outage', pattern: /\b(incidents?|outages?|downtime|breach(es)?|data loss|service disruption|partial disruption|degraded (performance|service))\b/i },
  { priority: 'high', what: 'a security issue', pattern: /\b(security|vulnerabilit(y|ies)|cve-\d{4}-\d+|exploit(ed)?)\b/i },
  {
    priority: 'high',
    what: 'a deprecation',
    pattern: /\b(deprecat\w*|end[- ]of[- ]life|sunset(s|ting)?|breaking changes?|will be removed|discontinu\w*|no longer supported)\b/i,
  },
  {
    priority: 'high',
    what: 'a price change',
    pattern: /\b(new( \w+)? pricing|pric(e|es|ing) (change|changes|increase|increases|update|updates)|(raise|raising|raises|increase|increasing|increases) (our |the |its )?prices?|price (rise|hike)s?)\b/i,
  },
];

/** The rule an item's words match, if any. */
export function priorityRule(s: Pick<EngineSignal, 'title' | 'detail'>): (typeof PRIORITY_RULES)[number] | null {
  const text = `${s.title}\n${excerpt(s.detail, 1200)}`;
  return PRIORITY_RULES.find((r) => r.pattern.test(text)) ?? null;
}

/** A signal's priority: its own, raised by what it says. */
export function effectivePriority(s: EngineSignal): TaskPriority {
  const rule = priorityRule(s);
  return rule && priorityRank(rule.priority) > priorityRank(s.priority) ? rule.priority : s.priority;
}

/** The rules, as the run record states them. */
export function triageRulesText(): string {
  const rules = PRIORITY_RULES.map((r) => `${r.what} → ${r.priority}`).join('; ');
  return (
    `New signals join the most related open task, or a new one; signals of one source within ${SOURCE_GROUP_WINDOW_HOURS} h that share a distinctive word (one topic, e.g. one product's release notes) share one task. ` +
    `Priority is the signal's own, raised by what the item says: ${rules}; such an item gets a task of its own unless it tells the same story as a group.`
  );
}

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
  let priority: TaskPriority = effectivePriority(first);
  for (const s of signals) if (priorityRank(effectivePriority(s)) > priorityRank(priority)) priority = effectivePriority(s);
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
  // Per new group: its first signal's source, time and rule (an urgent item is not grouped with ordinary ones), and its words.
  const groupInfo: { sourceId: string | null; at: number; rule: string | null; words: Set<string> }[] = [];
  const ruleOf = newSignals.map((s) => priorityRule(s)?.what ?? null);
  // A word in more than a fifth of this cycle's documents says nothing about a topic (as OverlapIndex.best counts them).
  const docCount = tasks.length + newSignals.length;
  const commonWeight = Math.log(1 + Math.max(docCount, 1) / Math.max(25, docCount / 5));
  const windowMs = SOURCE_GROUP_WINDOW_HOURS * 3_600_000;
  const sameTopicGroup = (i: number): number => {
    const s = newSignals[i];
    if (s.sourceId === null) return -1;
    const at = Date.parse(s.createdAt);
    for (let g = 0; g < groupInfo.length; g++) {
      const info = groupInfo[g];
      if (info.sourceId !== s.sourceId || info.rule !== ruleOf[i] || Math.abs(at - info.at) > windowMs) continue;
      if (sWords[i].some((w) => info.words.has(w) && index.weight(w) > commonWeight)) return g;
    }
    return -1;
  };
  const join = (g: number, i: number) => {
    groups[g].push(newSignals[i]);
    for (const w of sWords[i]) groupInfo[g].words.add(w);
    placement.set(newSignals[i].id, `new-${g + 1}`);
  };
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
    } else if (hit && (groupInfo[hit.target - tasks.length].rule === ruleOf[i] || hit.score >= SAME_STORY_SCORE)) {
      join(hit.target - tasks.length, i);
    } else if (sameTopicGroup(i) >= 0) {
      join(sameTopicGroup(i), i);
    } else {
      // Founding signal of a new task: later signals of this cycle can join it.
      index.add(sWords[i]);
      groups.push([signal]);
      groupInfo.push({ sourceId: signal.sourceId, at: Date.parse(signal.createdAt), rule: ruleOf[i], words: new Set(sWords[i]) });
      placement.set(signal.id, `new-${groups.length}`);
    }
  }
  const newTasks = groups.map((g, i) => planTask(`new-${i + 1}`, g, focusTags));
  return { attached, newTasks, placement };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What triage did with this cycle's signals, in a sentence (the run record's account). */
export function triageSummary(tri: TriageResult, signals: readonly EngineSignal[]): string {
  const attached = [...tri.attached.values()].reduce((n, l) => n + l.length, 0);
  const grouped = tri.newTasks.filter((t) => t.signals.length > 1);
  const raised = signals.filter((s) => priorityRank(effectivePriority(s)) > priorityRank(s.priority)).length;
  const parts = [`${plural(signals.length, 'new signal')}: ${attached} joined open tasks, ${plural(tri.newTasks.length, 'new task')}`];
  if (grouped.length) parts.push(`${grouped.reduce((n, t) => n + t.signals.length, 0)} of them grouped into ${plural(grouped.length, 'task')}`);
  if (raised) parts.push(`${plural(raised, 'signal')} raised in priority by what ${raised === 1 ? 'it says' : 'they say'}`);
  return `${parts.join('; ')}.`;
}
