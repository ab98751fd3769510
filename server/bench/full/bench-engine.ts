/**
 * The dataset's engine: a scripted, seeded engine that the real cycle runner (runCycle: gather,
 * engine, applyCycle in one transaction) drives, so tasks, outputs, memory, retrievals, triage
 * and the cost ledger are written by the loop's own apply path. Each cycle is told how many
 * tasks, outputs and memory drafts to produce (the generator's quotas), takes in every new
 * signal it is handed, and closes the oldest open tasks so the open queue stays a working size.
 */
import type { CycleDecisions, CycleInput, Engine } from '../../engine/types';
import { ARTIFACT_KINDS } from '../../domain/artifacts/rules';
import { MEMORY_KINDS } from '../../domain/memory/rules';
import { TASK_DELIVERABLE_TYPES, TASK_KINDS } from '../../domain/tasks/rules';
import { rng } from '../measure';

export const WORDS =
  'pricing onboarding wizard checkout refund invoice latency outage dashboard export import mobile android ios billing seats trial churn review rating support ticket escalation launch roadmap feature request bug crash login password sso security audit compliance gdpr partner integration slack webhook api quota limit migration database backup release changelog newsletter campaign competitor funding hiring analytics retention cohort conversion funnel landing signup docs tutorial webinar community forum feedback survey nps design accessibility performance search filter notification email digest calendar reminder template automation workflow'.split(
    ' ',
  );

export const TAGS = ['launch', 'pricing', 'support', 'security', 'growth', 'mobile', 'billing', 'partners', 'docs', 'infra', 'research', 'hiring'];

export interface CycleQuota {
  tasks: number;
  artifacts: number;
  memory: number;
}

/** Open tasks the engine leaves open after a cycle (older ones are closed as delivered). */
const OPEN_TARGET = 300;

export class BenchEngine implements Engine {
  readonly kind = 'local' as const;
  readonly model = 'gpt-4o-mini';
  private readonly random: () => number;
  quota: CycleQuota = { tasks: 0, artifacts: 0, memory: 0 };
  private cycle = 0;

  constructor(seed: number) {
    this.random = rng(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  private words(n: number): string {
    return Array.from({ length: n }, () => this.pick(WORDS)).join(' ');
  }

  async runCycle(input: CycleInput): Promise<CycleDecisions> {
    this.cycle += 1;
    const q = this.quota;
    const signalIds = input.newSignals.map((s) => s.id);
    const per = q.tasks > 0 ? Math.ceil(signalIds.length / q.tasks) : 0;
    const newTasks = Array.from({ length: q.tasks }, (_, i) => {
      const t1 = this.pick(TAGS);
      const t2 = this.pick(TAGS);
      return {
        ref: `new-${i}`,
        title: `${this.words(3)} follow-up ${this.cycle}-${i}`,
        summary: `Customers keep raising ${this.words(6)}.`,
        kind: this.pick(TASK_KINDS),
        deliverableType: this.pick(TASK_DELIVERABLE_TYPES),
        priority: this.pick(['low', 'normal', 'high', 'urgent'] as const),
        tags: t1 === t2 ? [t1] : [t1, t2],
        signalIds: signalIds.slice(i * per, (i + 1) * per),
      };
    });
    // Outputs: the new tasks first, then open tasks the cycle may work.
    const workable = input.tasks.filter((t) => t.workable).map((t) => t.id);
    const targets = [...newTasks.map((t) => t.ref), ...workable].slice(0, q.artifacts);
    const usageByTask: CycleDecisions['usageByTask'] = {};
    const artifacts: CycleDecisions['artifacts'] = [];
    for (const ref of targets) {
      const found = this.random() < 0.6 ? await input.searchMemory(ref, this.words(3), 5) : [];
      artifacts.push({
        taskRef: ref,
        kind: this.pick(ARTIFACT_KINDS),
        title: `${this.words(4)} ${this.pick(['brief', 'report', 'plan', 'summary'])}`,
        content: `# Findings\n\n${this.words(60)}\n\n## Next\n\n${this.words(30)}`,
        signalIds: [],
        memoryIds: found.map((m) => m.id),
      });
      usageByTask[ref] = { inputTokens: 800 + Math.floor(this.random() * 2400), outputTokens: 200 + Math.floor(this.random() * 900) };
    }
    for (const t of newTasks) usageByTask[t.ref] ??= { inputTokens: 120 + Math.floor(this.random() * 200), outputTokens: 40 };
    const memory = Array.from({ length: q.memory }, () => ({
      kind: this.pick(MEMORY_KINDS),
      title: `${this.words(3)} note`,
      content: `We learned that ${this.words(14)} matters for the team.`,
      tags: [this.pick(TAGS)],
      importance: this.random() < 0.3 ? 1 + Math.floor(this.random() * 5) : null,
    }));
    // Close the oldest open tasks (the queue a year-old desk has is mostly done work).
    const open = input.tasks.filter((t) => t.workable);
    const toClose = open.slice(0, Math.max(0, open.length + newTasks.length - OPEN_TARGET));
    const workLog: CycleDecisions['workLog'] = [
      ...toClose.map((t) => ({ taskRef: t.id, entry: `Delivered: ${this.words(5)}`, consumedNoteIds: t.notes.map((n) => n.id), status: 'done' as const })),
      ...newTasks.map((t) => ({ taskRef: t.ref, entry: `Started from ${t.signalIds.length} signals`, consumedNoteIds: [], status: this.pick(['queued', 'in_progress', 'needs_input'] as const) })),
    ];
    const total = Object.values(usageByTask).reduce((a, u) => ({ inputTokens: a.inputTokens + u.inputTokens, outputTokens: a.outputTokens + u.outputTokens }), { inputTokens: 400, outputTokens: 100 });
    return { newTasks, taskUpdates: [], artifacts, memory, workLog, triagedSignalIds: signalIds, usage: total, usageByTask };
  }
}
