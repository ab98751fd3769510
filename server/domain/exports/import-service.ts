import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { insertMemoryRows, insertMemoryTagRows } from '../memory/memory-store';
import { insertSignalRows } from '../signals/signal-store';
import { insertSources, newSourceRow } from '../sources/source-store';
import { readImportFile, type ImportMemory, type ImportSignal, type ImportSource, type SkippedItem } from './import-file';
import { checkFlag, IMPORT_CATEGORIES, IMPORT_REPORT_MAX_ITEMS, type ImportCategory } from './rules';

/**
 * POST /workspace/import: appends sources, signals and memory from a GET /workspace/export file.
 * The whole file is read first (import-file.ts); then, in ONE transaction, duplicates are found
 * against this desk and the file itself, the rest is written with new ids (a signal's sourceId is
 * remapped to the source imported, or to the matching source already here), and one activity row
 * and one `workspace.imported` event record it. `dryRun` answers the same report and writes nothing.
 *
 * Duplicates: a source with the same type and url (file sources: the same file; manual sources
 * without url: the same label); a signal with the same externalId, or the same title, kind and
 * createdAt; a memory entry with the same kind, title and createdAt.
 * Imported signals keep their createdAt and are marked triaged: they are history, not new input
 * for the loop. Memory keeps its createdAt, tags, pin and archive state; usage counters start at 0.
 */

export interface ImportInput {
  data: unknown;
  categories?: { memory?: boolean; signals?: boolean; sources?: boolean };
  dryRun?: boolean;
}

export interface ImportCounts {
  /** @isInt */
  sources: number;
  /** @isInt */
  signals: number;
  /** @isInt */
  memory: number;
}

export interface SkipCounts {
  /** Already in this desk, or earlier in the file. @isInt */
  duplicate: number;
  /** Breaks a rule of this desk. @isInt */
  invalid: number;
}

export interface ImportReport {
  /** true: nothing was written (a preview). */
  dryRun: boolean;
  /** The file's export version. @isInt */
  version: number;
  /** The file's exportedAt, when it says. */
  exportedAt: string | null;
  added: ImportCounts;
  skipped: { sources: SkipCounts; signals: SkipCounts; memory: SkipCounts };
  /** The first 200 items skipped, with the reason (invalid ones first). */
  skippedItems: SkippedItem[];
  /** Signals added without a source: their source was neither in the file nor in this desk. @isInt */
  unlinkedSignals: number;
}

interface Plan {
  sources: (ImportSource & { newId: string })[];
  signals: (ImportSignal & { newId: string; targetSourceId: string | null })[];
  memory: (ImportMemory & { newId: string })[];
  duplicates: SkippedItem[];
  unlinkedSignals: number;
}

const CHUNK = 200;
const sourceKey = (s: { type: string; url: string | null; label: string; filePath: string | null }) =>
  s.type === 'file' ? `file\n${s.filePath}` : s.url !== null ? `${s.type}\n${s.url}` : `${s.type}\nlabel:${s.label}`;
const signalKey = (s: { title: string; kind: string; createdAt: string }) => `${s.kind}\n${s.title}\n${s.createdAt}`;
const memoryKey = signalKey;

async function inChunks<T>(values: readonly string[], read: (part: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += 400) out.push(...(await read(values.slice(i, i + 400))));
  return out;
}

function duplicate(category: ImportCategory, item: { index: number; id: string }, message: string): SkippedItem {
  return { category, index: item.index, id: item.id, reason: 'duplicate', field: null, message };
}

/** What the import would do: reads this desk (pass the transaction when inside one). */
async function planImport(db: Db, clock: Clock, file: ReturnType<typeof readImportFile>, add: Record<ImportCategory, boolean>): Promise<Plan> {
  const plan: Plan = { sources: [], signals: [], memory: [], duplicates: [], unlinkedSignals: 0 };

  const existing = await db.selectFrom('sources').select(['id', 'type', 'url', 'label', 'filePath']).execute();
  const sourceByKey = new Map(existing.map((s) => [sourceKey(s), s.id]));
  const sourceMap = new Map<string, string>();
  for (const s of file.sources) {
    const key = sourceKey(s);
    const same = sourceByKey.get(key);
    if (same !== undefined) {
      if (!sourceMap.has(s.id)) sourceMap.set(s.id, same);
      if (add.sources) plan.duplicates.push(duplicate('sources', s, `a ${s.type} source for ${s.url ?? s.label} is already here`));
      continue;
    }
    if (!add.sources) continue;
    const id = newId('src', clock);
    sourceByKey.set(key, id);
    sourceMap.set(s.id, id);
    plan.sources.push({ ...s, newId: id });
  }

  if (add.signals) {
    const externalIds = file.signals.flatMap((s) => (s.externalId ? [s.externalId] : []));
    const takenExternal = new Set(
      (await inChunks(externalIds, (part) => db.selectFrom('signals').select('externalId').where('externalId', 'in', part).execute())).map((r) => r.externalId),
    );
    const times = [...new Set(file.signals.map((s) => s.createdAt))];
    const taken = new Set(
      (await inChunks(times, (part) => db.selectFrom('signals').select(['title', 'kind', 'createdAt']).where('createdAt', 'in', part).execute())).map(signalKey),
    );
    for (const s of file.signals) {
      if (s.externalId !== null && takenExternal.has(s.externalId)) {
        plan.duplicates.push(duplicate('signals', s, `a signal with externalId ${s.externalId} is already here`));
        continue;
      }
      const key = signalKey(s);
      if (taken.has(key)) {
        plan.duplicates.push(duplicate('signals', s, `a ${s.kind} signal titled “${s.title}” created ${s.createdAt} is already here`));
        continue;
      }
      taken.add(key);
      if (s.externalId !== null) takenExternal.add(s.externalId);
      const targetSourceId = s.sourceId === null ? null : (sourceMap.get(s.sourceId) ?? null);
      if (s.sourceId !== null && targetSourceId === null) plan.unlinkedSignals += 1;
      plan.signals.push({ ...s, newId: newId('sig', clock), targetSourceId });
    }
  }

  if (add.memory) {
    const times = [...new Set(file.memory.map((m) => m.createdAt))];
    const taken = new Set((await inChunks(times, (part) => db.selectFrom('memory').select(['title', 'kind', 'createdAt']).where('createdAt', 'in', part).execute())).map(memoryKey));
    for (const m of file.memory) {
      const key = memoryKey(m);
      if (taken.has(key)) {
        plan.duplicates.push(duplicate('memory', m, `a ${m.kind} entry titled “${m.title}” created ${m.createdAt} is already here`));
        continue;
      }
      taken.add(key);
      plan.memory.push({ ...m, newId: newId('mem', clock) });
    }
  }
  return plan;
}

function report(dryRun: boolean, file: ReturnType<typeof readImportFile>, plan: Plan, invalidItems: SkippedItem[]): ImportReport {
  const skipped = Object.fromEntries(
    IMPORT_CATEGORIES.map((c) => [c, { duplicate: plan.duplicates.filter((d) => d.category === c).length, invalid: invalidItems.filter((d) => d.category === c).length }]),
  ) as ImportReport['skipped'];
  return {
    dryRun,
    version: file.version,
    exportedAt: file.exportedAt,
    added: { sources: plan.sources.length, signals: plan.signals.length, memory: plan.memory.length },
    skipped,
    skippedItems: [...invalidItems, ...plan.duplicates].slice(0, IMPORT_REPORT_MAX_ITEMS),
    unlinkedSignals: plan.unlinkedSignals,
  };
}

async function writePlan(trx: Trx, clock: Clock, plan: Plan): Promise<void> {
  const now = clock.now().toISOString();
  const newest = new Map<string, string>();
  for (const s of plan.signals) if (s.targetSourceId && s.createdAt > (newest.get(s.targetSourceId) ?? '')) newest.set(s.targetSourceId, s.createdAt);
  await insertSources(
    trx,
    plan.sources.map((s) => newSourceRow({ ...s, id: s.newId, createdAt: now, lastSignalAt: newest.get(s.newId) ?? null })),
  );
  for (let i = 0; i < plan.signals.length; i += CHUNK) {
    await insertSignalRows(
      trx,
      plan.signals.slice(i, i + CHUNK).map((s) => ({
        id: s.newId,
        kind: s.kind,
        priority: s.priority,
        title: s.title,
        detail: s.detail,
        sourceUrl: s.sourceUrl,
        sourceId: s.targetSourceId,
        pinned: s.pinned ? 1 : 0,
        createdAt: s.createdAt,
        externalId: s.externalId,
        // As insertSignal keeps it: never after the signal reached the desk.
        publishedAt: s.publishedAt === null ? null : s.publishedAt < s.createdAt ? s.publishedAt : s.createdAt,
        triagedAt: now,
      })),
    );
  }
  for (let i = 0; i < plan.memory.length; i += CHUNK) {
    const part = plan.memory.slice(i, i + CHUNK);
    await insertMemoryRows(
      trx,
      part.map((m) => ({
        id: m.newId,
        kind: m.kind,
        title: m.title,
        content: m.content,
        importance: m.importance,
        pinned: m.pinned ? 1 : 0,
        archivedAt: m.archivedAt,
        createdAt: m.createdAt,
        updatedAt: m.updatedAt,
      })),
    );
    const tags = part.flatMap((m) => m.tags.map((tag) => ({ memoryId: m.newId, tag })));
    for (let j = 0; j < tags.length; j += CHUNK) await insertMemoryTagRows(trx, tags.slice(j, j + CHUNK));
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export class ImportService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async importFile(input: ImportInput): Promise<ImportReport> {
    const dryRun = input.dryRun === undefined ? false : checkFlag('dryRun', input.dryRun);
    const asked: Record<ImportCategory, boolean> = {
      sources: checkFlag('categories.sources', input.categories?.sources),
      signals: checkFlag('categories.signals', input.categories?.signals),
      memory: checkFlag('categories.memory', input.categories?.memory),
    };
    // Sources are read for signals too (to link them to sources already here), added only when asked.
    const file = readImportFile(input.data, { ...asked, sources: asked.sources || asked.signals });
    const invalidItems = file.invalid.filter((item) => asked[item.category]);
    if (dryRun) return report(true, file, await planImport(this.db, this.clock, file, asked), invalidItems);
    return inTransaction(this.db, async (trx) => {
      const plan = await planImport(trx, this.clock, file, asked);
      await writePlan(trx, this.clock, plan);
      const answer = report(false, file, plan, invalidItems);
      const duplicates = plan.duplicates.length;
      const actor = await resolveActor(trx);
      const { added } = answer;
      await recordActivity(trx, this.clock, {
        kind: 'workspace.imported',
        detail: `Imported ${plural(added.sources, 'source', 'sources')}, ${plural(added.signals, 'signal', 'signals')} and ${plural(added.memory, 'memory entry', 'memory entries')}; skipped ${plural(duplicates, 'duplicate', 'duplicates')} and ${invalidItems.length} invalid`,
        actor,
        entityType: 'workspace',
      });
      await emit(trx, this.clock, 'workspace.imported', { added, duplicates, invalid: invalidItems.length, exportedAt: file.exportedAt });
      return answer;
    });
  }
}
