/**
 * The pieces every built-in draft shares: the work item it is drafted from, citation labels of its
 * signals and memory (a repeated signal cited once, with every copy), the header, the next steps
 * that notes, signals and standing memory call for, and the sources list.
 */
import type { ArtifactKind, SignalKind, TaskDeliverableType, TaskKind, TaskPriority } from '../../core/vocabulary';
import { excerpt } from '../prompt';
import type { EngineMemory, EngineNote, EngineSignal } from '../types';
import { groupRepeats } from './text';
import { priorityRank } from './triage';

/** At most this many signals are cited in one draft (the most recent ones). */
export const MAX_CITED_SIGNALS = 12;

/** A task as the draft sees it: an existing task with this cycle's new signals, or a new task. */
export interface WorkItem {
  ref: string;
  isNew: boolean;
  title: string;
  summary: string;
  goal: string;
  context: string;
  kind: TaskKind | null;
  deliverableType: TaskDeliverableType | null;
  priority: TaskPriority | null;
  status: string;
  tags: string[];
  /** Every signal of the task, oldest first, including those attached this cycle. */
  signals: EngineSignal[];
  /** Ids of the signals that arrived since the latest output (or this cycle). */
  freshSignalIds: Set<string>;
  notes: EngineNote[];
  latestArtifact: { id: string; version: number; title: string; status: string } | null;
}

export const oneLine = (text: string, max: number): string => excerpt(text, max).replace(/\n/g, ' ');

export function formatWhen(iso: string, timezone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', { timeZone: timezone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }).format(d);
}

/** A signal as a draft cites it: the first of the signals that say the same thing, with the others' labels. */
export interface CitedSignal {
  signal: EngineSignal;
  /** "[S1]" or "[S1, S3, S4]" when several signals repeat one statement. */
  cite: string;
  /** Every signal of the group, first one first. */
  group: EngineSignal[];
}

/** What a draft cites: its signals (repeats folded into one) and its memory, with their labels. */
export interface Citations {
  /** The signals cited, most recent MAX_CITED_SIGNALS, in order. */
  cited: EngineSignal[];
  label: Map<string, string>;
  /** One per distinct statement: signals whose title and detail repeat an earlier one are folded into it. */
  distinct: CitedSignal[];
  memory: EngineMemory[];
}

export function citationsOf(item: WorkItem, memory: EngineMemory[]): Citations {
  const cited = item.signals.slice(-MAX_CITED_SIGNALS);
  const label = new Map(cited.map((s, i) => [s.id, `S${i + 1}`]));
  const distinct = groupRepeats(cited, (s) => `${s.title}. ${excerpt(s.detail, 280)}`).map((group) => ({
    signal: group[0],
    cite: `[${group.map((s) => label.get(s.id)).join(', ')}]`,
    group,
  }));
  return { cited, label, distinct, memory };
}

/** The highest priority in a group of signals that repeat each other. */
export const groupPriority = (c: CitedSignal): EngineSignal['priority'] => c.group.reduce((p, s) => (priorityRank(s.priority) > priorityRank(p) ? s.priority : p), c.signal.priority);

export function headerLines(title: string, item: WorkItem, version: number, now: string, timezone: string): string[] {
  const meta = [`Version ${version}`, `drafted ${formatWhen(now, timezone)} (${timezone})`];
  if (item.priority) meta.push(`priority ${item.priority}`);
  if (item.tags.length > 0) meta.push(`tags: ${item.tags.join(', ')}`);
  return [`# ${title}`, '', `_${meta.join(' · ')}_`, ''];
}

const ACTION: Record<SignalKind, string> = {
  news: 'Assess what it changes for us:',
  mention: 'Respond to the mention:',
  review: 'Answer the review:',
  message: 'Reply to the message:',
  alert: 'Investigate the alert and confirm whether it is resolved:',
  metric: 'Check the metric against its usual range:',
  note: 'Act on the note:',
  other: 'Look into:',
};

/** Who usually does the step a signal calls for: a role, since the desk assigns no person. */
const ROLE: Record<SignalKind, string> = {
  news: 'Product', mention: 'Marketing', review: 'Support', message: 'Support', alert: 'On-call engineer', metric: 'Analyst', note: 'Operator', other: 'Operator',
};

/** One step of the work: what to do, and the role that does it. */
export interface Step {
  text: string;
  owner: string;
  /** "today" for urgent work, "this week" for high priority, null otherwise. */
  when: string | null;
}

/**
 * The steps the task calls for, most pressing first: the operator's notes (authoritative), the
 * signals by urgency (one step per distinct statement), standing preferences and decisions.
 */
export function workSteps(item: WorkItem, c: Citations): Step[] {
  const steps: Step[] = [];
  for (const n of item.notes) steps.push({ text: `Follow the operator's direction: "${oneLine(n.text, 160)}"`, owner: 'Operator', when: null });
  const byUrgency = [...c.distinct].sort((a, b) => priorityRank(groupPriority(b)) - priorityRank(groupPriority(a)) || (a.signal.createdAt < b.signal.createdAt ? 1 : a.signal.createdAt > b.signal.createdAt ? -1 : 0));
  for (const d of byUrgency.slice(0, 5)) {
    const p = groupPriority(d);
    steps.push({ text: `${ACTION[d.signal.kind]} ${d.cite} "${oneLine(d.signal.title, 160)}".`, owner: ROLE[d.signal.kind], when: p === 'urgent' ? 'today' : p === 'high' ? 'this week' : null });
  }
  c.memory.forEach((m, i) => {
    if (m.kind === 'preference' || m.kind === 'decision') steps.push({ text: `Keep to the standing ${m.kind} [M${i + 1}]: ${oneLine(m.title, 160)}.`, owner: 'Everyone', when: null });
  });
  return steps;
}

export function sourcesLines(c: Citations): string[] {
  const out = ['## Sources', ''];
  if (c.cited.length === 0 && c.memory.length === 0) out.push('None: the draft is built from the task and its notes.');
  for (const s of c.cited) out.push(`- [${c.label.get(s.id)}] ${oneLine(s.title, 200)} — ${s.sourceUrl ?? 'no link'} (signal ${s.id})`);
  c.memory.forEach((m, i) => out.push(`- [M${i + 1}] ${oneLine(m.title, 200)} (memory ${m.id})`));
  return out;
}

/** What the operator's notes say, quoted: authoritative direction a draft keeps to. */
export function directionLines(item: WorkItem): string[] {
  if (item.notes.length === 0) return [];
  const out = ['Operator direction (authoritative):', ''];
  for (const n of item.notes) out.push(...n.text.trim().split('\n').map((line) => `> ${line}`), '');
  return out;
}

export type { ArtifactKind };
