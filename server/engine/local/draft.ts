/**
 * The local engine's output: a markdown draft a person would want to read, built only from the
 * task, its signals, the retrieved memory and the operator notes, each cited where it is used.
 */
import type { ArtifactKind, SignalKind, TaskDeliverableType, TaskKind, TaskPriority } from '../../core/vocabulary';
import { excerpt } from '../prompt';
import type { EngineMemory, EngineNote, EngineSignal } from '../types';
import { priorityRank, subjectOf } from './triage';
import { surfaceForms, words } from './text';

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

const DEFAULT_KIND: Record<TaskKind, ArtifactKind> = {
  research: 'brief', writing: 'draft', analysis: 'report', outreach: 'email', review: 'summary', planning: 'plan', ops: 'checklist', other: 'summary',
};

export const artifactKind = (item: Pick<WorkItem, 'deliverableType' | 'kind'>): ArtifactKind =>
  item.deliverableType ?? (item.kind ? DEFAULT_KIND[item.kind] : 'brief');

const LABEL: Record<ArtifactKind, string> = {
  brief: 'Brief', report: 'Report', draft: 'Draft', summary: 'Summary', plan: 'Plan', checklist: 'Checklist', email: 'Email draft', post: 'Post draft', other: 'Output',
};

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

const CLOSING: Record<ArtifactKind, string> = {
  brief: 'Approve this brief to mark the task delivered, or add an operator note saying what it should cover instead.',
  report: 'Check the figures against the cited sources before the report is shared, then approve it.',
  draft: 'Edit the draft to your voice, then approve it; an operator note with changes makes the next cycle redraft it.',
  summary: 'Approve the summary if it is accurate; an operator note with corrections makes the next cycle redraft it.',
  plan: 'Approve the plan, or add an operator note with the constraints it missed.',
  checklist: 'Work through the checklist, then approve it; add an operator note for anything it missed.',
  email: 'Edit the email to your voice, then approve it; an operator note with changes makes the next cycle redraft it.',
  post: 'Edit the post to your voice, then approve it; an operator note with changes makes the next cycle redraft it.',
  other: 'Approve this output, or add an operator note saying what to change.',
};

const oneLine = (text: string, max: number): string => excerpt(text, max).replace(/\n/g, ' ');

function formatWhen(iso: string, timezone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat('en-GB', { timeZone: timezone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }).format(d);
}

/** Words that recur across at least two of the signals (the shared story), most frequent first. */
function themes(signals: EngineSignal[]): string[] {
  if (signals.length < 2) return [];
  const count = new Map<string, number>();
  const forms = new Map<string, string>();
  for (const s of signals) {
    surfaceForms(s.title, forms);
    for (const w of words(s.title)) count.set(w, (count.get(w) ?? 0) + 1);
  }
  return [...count.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 5)
    .map(([w]) => forms.get(w) ?? w);
}

export interface Draft {
  kind: ArtifactKind;
  title: string;
  content: string;
  signalIds: string[];
  memoryIds: string[];
  version: number;
}

export function composeDraft(item: WorkItem, memory: EngineMemory[], now: string, timezone: string): Draft {
  const kind = artifactKind(item);
  const version = item.latestArtifact ? item.latestArtifact.version + 1 : 1;
  // "Brief: Competitor launch", not "Brief: Assess: Competitor launch": the label already says what it is.
  const title = excerpt(`${LABEL[kind]}: ${subjectOf(item.title)}`, 200);
  const cited = item.signals.slice(-MAX_CITED_SIGNALS);
  const sLabel = new Map(cited.map((s, i) => [s.id, `S${i + 1}`]));
  const out: string[] = [`# ${title}`, ''];
  const meta = [`Version ${version}`, `drafted ${formatWhen(now, timezone)} (${timezone})`];
  if (item.priority) meta.push(`priority ${item.priority}`);
  if (item.tags.length > 0) meta.push(`tags: ${item.tags.join(', ')}`);
  out.push(`_${meta.join(' · ')}_`, '');

  out.push('## What happened', '');
  if (cited.length === 0) {
    out.push('No signals are attached to this task; this draft works from the task itself and the operator\'s notes.');
  } else {
    if (item.signals.length > cited.length) out.push(`The ${cited.length} most recent of ${item.signals.length} signals:`, '');
    for (const s of cited) {
      const fresh = item.freshSignalIds.has(s.id) && item.latestArtifact ? ' (new since the last version)' : '';
      const link = s.sourceUrl ? ` — [link](${s.sourceUrl})` : '';
      const detail = s.detail.trim() === '' ? '' : `: ${oneLine(s.detail, 280)}`;
      out.push(`- [${sLabel.get(s.id)}] **${oneLine(s.title, 200)}** (${s.kind}, ${s.priority}, ${formatWhen(s.createdAt, timezone)})${fresh}${detail}${link}`);
    }
  }
  out.push('');

  out.push('## What it means', '');
  if (item.goal.trim() !== '') out.push(`**Goal:** ${oneLine(item.goal, 600)}`, '');
  else out.push('The task has no goal set; this draft works from its summary.', '');
  // The summary's first paragraph: the signals it lists after it are cited above already.
  if (item.summary.trim() !== '') out.push(excerpt(item.summary.split(/\n\s*\n/)[0], 1200), '');
  if (item.context.trim() !== '') out.push(`**Context:** ${oneLine(item.context, 600)}`, '');
  const pressing = cited.filter((s) => priorityRank(s.priority) >= 2);
  if (pressing.length > 0) {
    out.push(`${pressing.length} of ${cited.length} signals ${pressing.length === 1 ? 'is' : 'are'} high or urgent priority (${pressing.map((s) => `[${sLabel.get(s.id)}]`).join(', ')}): this needs attention before routine work.`, '');
  }
  const common = themes(cited);
  if (common.length > 0) out.push(`The signals keep coming back to: ${common.join(', ')}.`, '');
  if (item.latestArtifact) {
    const fresh = cited.filter((s) => item.freshSignalIds.has(s.id)).length;
    out.push(`Since version ${item.latestArtifact.version} (${item.latestArtifact.status}): ${fresh} new signal${fresh === 1 ? '' : 's'} and ${item.notes.length} operator note${item.notes.length === 1 ? '' : 's'}.`, '');
  }
  if (memory.length === 0) {
    out.push('No memory entry matched this task.');
  } else {
    out.push('What Desk already knows:', '');
    memory.forEach((m, i) => out.push(`- [M${i + 1}] **${oneLine(m.title, 200)}** (${m.kind}): ${oneLine(m.content, 280)}`));
  }
  out.push('');

  out.push('## What to do next', '');
  if (item.notes.length > 0) {
    out.push('Operator direction (authoritative):', '');
    for (const n of item.notes) out.push(...n.text.trim().split('\n').map((line) => `> ${line}`), '');
  }
  const steps: string[] = [];
  for (const n of item.notes) steps.push(`Follow the operator's direction: "${oneLine(n.text, 160)}"`);
  const byUrgency = [...cited].sort((a, b) => priorityRank(b.priority) - priorityRank(a.priority) || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  for (const s of byUrgency.slice(0, 5)) {
    const when = s.priority === 'urgent' ? ' Urgent: today.' : s.priority === 'high' ? ' High priority.' : '';
    steps.push(`${ACTION[s.kind]} [${sLabel.get(s.id)}] "${oneLine(s.title, 160)}".${when}`);
  }
  memory.forEach((m, i) => {
    if (m.kind === 'preference' || m.kind === 'decision') steps.push(`Keep to the standing ${m.kind} [M${i + 1}]: ${oneLine(m.title, 160)}.`);
  });
  if (item.goal.trim() === '') steps.push('Set a goal on the task so the next version can be measured against it.');
  steps.push(CLOSING[kind]);
  steps.forEach((s, i) => out.push(`${i + 1}. ${s}`));
  out.push('');

  out.push('## Sources', '');
  if (cited.length === 0 && memory.length === 0) out.push('None: the draft is built from the task and its notes.');
  for (const s of cited) out.push(`- [${sLabel.get(s.id)}] ${oneLine(s.title, 200)} — ${s.sourceUrl ?? 'no link'} (signal ${s.id})`);
  memory.forEach((m, i) => out.push(`- [M${i + 1}] ${oneLine(m.title, 200)} (memory ${m.id})`));

  return { kind, title, content: `${out.join('\n').trimEnd()}\n`, signalIds: cited.map((s) => s.id), memoryIds: memory.map((m) => m.id), version };
}
