import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { DeskError, invalid } from '../../core/errors';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { insertMemoryRows } from '../memory/memory-store';
import { insertSignal } from '../signals/signal-store';
import { stampFreshSignal } from '../sources/source-store';
import { findTemplate } from './catalog';
import type { OnboardingTemplate } from './content';

/**
 * Applying an onboarding template to the workspace: its memories become memory entries and its
 * sample signals become manual signals, in ONE transaction with ONE activity row
 * (`onboarding.template_applied`) and one `onboarding.template_applied` event. Each memory entry
 * still announces itself with `memory.created` and each signal with `signal.created`, as any
 * other one does, so subscribers see them. An entry whose title is already on the desk (a live or
 * archived memory entry, a signal) is skipped, so applying the same template twice adds nothing.
 */

export interface ApplyTemplateInput {
  key: string;
  memories?: boolean;
  signals?: boolean;
  memoryIndexes?: number[];
  signalIndexes?: number[];
  asUserId?: string;
}

/** Something the apply added. */
export interface AppliedEntry {
  id: string;
  title: string;
}

export interface ApplyTemplateResult {
  key: string;
  name: string;
  added: { memories: AppliedEntry[]; signals: AppliedEntry[] };
  /** Titles left out because an entry with that title is already on the desk. */
  skipped: { memories: string[]; signals: string[] };
}

/** The 404 of an unknown template key, in the one error shape (`template_not_found`, like the public 404). */
export const unknownTemplate = (key: string) => new DeskError(404, 'template_not_found', `No onboarding template with key ${key}`);

function checkFlag(field: string, value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') throw invalid(field, 'must be true or false');
  return value;
}

/** Positions (0-based) of the entries wanted: all when absent; each must name an entry of the template. */
function checkIndexes(field: string, value: unknown, size: number): number[] {
  if (value === undefined) return Array.from({ length: size }, (_, i) => i);
  if (!Array.isArray(value)) throw invalid(field, 'must be a list of positions');
  value.forEach((v, i) => {
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) >= size) throw invalid(`${field}[${i}]`, `must be an integer from 0 to ${size - 1}`);
  });
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

function plan(template: OnboardingTemplate, input: ApplyTemplateInput) {
  const wantMemories = checkFlag('memories', input.memories);
  const wantSignals = checkFlag('signals', input.signals);
  const memoryAt = checkIndexes('memoryIndexes', input.memoryIndexes, template.memories.length);
  const signalAt = checkIndexes('signalIndexes', input.signalIndexes, template.signals.length);
  return {
    memories: wantMemories ? memoryAt.map((i) => template.memories[i]) : [],
    signals: wantSignals ? signalAt.map((i) => template.signals[i]) : [],
  };
}

export class OnboardingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async apply(input: ApplyTemplateInput): Promise<ApplyTemplateResult> {
    if (typeof input.key !== 'string') throw invalid('key', 'must be a template key');
    const template = findTemplate(input.key);
    if (template === undefined) throw unknownTemplate(input.key);
    const wanted = plan(template, input);
    const { clock } = this;
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      const memoryTitles = wanted.memories.map((e) => e.title);
      const signalTitles = wanted.signals.map((e) => e.title);
      const haveMemory = new Set(memoryTitles.length === 0 ? [] : (await trx.selectFrom('memory').select('title').where('title', 'in', memoryTitles).execute()).map((r) => r.title));
      const haveSignal = new Set(signalTitles.length === 0 ? [] : (await trx.selectFrom('signals').select('title').where('title', 'in', signalTitles).execute()).map((r) => r.title));
      const result: ApplyTemplateResult = { key: template.key, name: template.name, added: { memories: [], signals: [] }, skipped: { memories: [], signals: [] } };
      const now = clock.now().toISOString();
      for (const e of wanted.memories) {
        if (haveMemory.has(e.title)) {
          result.skipped.memories.push(e.title);
          continue;
        }
        const id = newId('mem', clock);
        await insertMemoryRows(trx, [{ id, kind: e.kind, title: e.title, content: e.content, importance: e.importance, pinned: 0, createdByRunId: null, createdAt: now, updatedAt: now }]);
        await emit(trx, clock, 'memory.created', { memoryId: id, kind: e.kind, title: e.title, importance: e.importance, pinned: false, tags: [], createdByRunId: null });
        result.added.memories.push({ id, title: e.title });
      }
      for (const e of wanted.signals) {
        if (haveSignal.has(e.title)) {
          result.skipped.signals.push(e.title);
          continue;
        }
        const id = await insertSignal(trx, clock, { kind: e.kind, priority: e.priority, title: e.title, detail: e.detail, origin: 'manual', createdAt: now }, stampFreshSignal);
        result.added.signals.push({ id, title: e.title });
      }
      const added = { memories: result.added.memories.length, signals: result.added.signals.length };
      const skipped = { memories: result.skipped.memories.length, signals: result.skipped.signals.length };
      await recordActivity(trx, clock, {
        kind: 'onboarding.template_applied',
        detail: `Template “${template.name}” applied: added ${added.memories} memory ${added.memories === 1 ? 'entry' : 'entries'} and ${added.signals} signal${added.signals === 1 ? '' : 's'}; skipped ${skipped.memories + skipped.signals} already on the desk`,
        actor,
        entityType: 'onboarding_template',
        entityId: template.key,
      });
      await emit(trx, clock, 'onboarding.template_applied', { key: template.key, name: template.name, added, skipped });
      return result;
    });
  }
}
