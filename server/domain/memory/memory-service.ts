import { bulkMemory, type MemoryBulkInput } from './memory-bulk';
import { MemoryCrud, type CreateMemoryInput, type MemoryDeps, type MemoryListQuery, type MemoryPatch } from './memory-crud';
import { sweepStaleMemory } from './memory-sweep';
import { MemoryUsage } from './memory-usage';

/**
 * The memory area as one object for controllers and jobs; each method belongs to one focused
 * module (crud, bulk, usage, sweep), which holds the rules and result types. The loop writes the
 * usage counters (retrieval_count, last_retrieved_at, memory_retrieval_daily, attributed tokens and
 * cost, cost_daily rows of dimension `memory`); this area only reads them.
 */
export class MemoryService {
  readonly crud: MemoryCrud;
  readonly usage: MemoryUsage;

  constructor(private readonly deps: MemoryDeps) {
    this.crud = new MemoryCrud(deps);
    this.usage = new MemoryUsage(deps);
  }

  // one entry at a time (memory-crud.ts)
  list = (query?: MemoryListQuery) => this.crud.list(query);
  get = (id: string, asUserId?: string) => this.crud.get(id, asUserId);
  create = (input: CreateMemoryInput) => this.crud.create(input);
  update = (id: string, patch: MemoryPatch) => this.crud.update(id, patch);
  remove = (id: string, asUserId?: string) => this.crud.remove(id, asUserId);
  toggleReaction = (id: string, emoji: string, asUserId?: string) => this.crud.toggleReaction(id, emoji, asUserId);
  forTask = (taskId: string, memoryIds: readonly string[]) => this.crud.forTask(taskId, memoryIds);
  // many entries (memory-bulk.ts)
  bulk = (input: MemoryBulkInput) => bulkMemory(this.deps, input);
  // usage views (memory-usage.ts)
  stale = (query?: Parameters<MemoryUsage['stale']>[0]) => this.usage.stale(query);
  retrievalTrajectory = (id: string, days?: number) => this.usage.retrievalTrajectory(id, days);
  costTrajectory = (id: string, days?: number) => this.usage.costTrajectory(id, days);
  topRetrieved = (query?: Parameters<MemoryUsage['topRetrieved']>[0]) => this.usage.topRetrieved(query);
  topCost = (query?: Parameters<MemoryUsage['topCost']>[0]) => this.usage.topCost(query);
  // the stale-memory auto-archive sweep (memory-sweep.ts)
  sweepStale = () => sweepStaleMemory(this.deps);
}
