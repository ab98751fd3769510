/**
 * The engine interface: what one loop cycle hands an engine and what it gets back. The cycle
 * runner (server/domain/loop) gathers the workspace state, calls `runCycle`, and applies the
 * decisions in one transaction; engines never touch the database. Two engines implement it:
 * `local` (offline, deterministic) and `openai` (any OpenAI-compatible chat-completions endpoint).
 */
import type { ArtifactKind, ArtifactStatus, EngineKind, MemoryKind, SignalKind, SignalPriority, TaskDeliverableType, TaskKind, TaskPriority, TaskStatus } from '../core/vocabulary';
import type { ModelPrice } from './pricing';
import type { StructuredOutputMode } from './structured-output';

export interface EngineSignal {
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl: string | null;
  sourceId: string | null;
  createdAt: string;
}

/** An operator note not yet read by a cycle: authoritative direction for its task. */
export interface EngineNote {
  id: string;
  text: string;
  createdAt: string;
}

export interface EngineMemory {
  id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  tags: string[];
  importance: number | null;
}

/** An open task (queued, in_progress or needs_input) as the engine sees it. */
export interface EngineTask {
  id: string;
  title: string;
  summary: string;
  goal: string;
  context: string;
  kind: TaskKind | null;
  deliverableType: TaskDeliverableType | null;
  priority: TaskPriority | null;
  status: TaskStatus;
  tags: string[];
  /** Signals already attached to the task (full rows, oldest first). */
  signals: EngineSignal[];
  /** Unconsumed operator notes, oldest first. */
  notes: EngineNote[];
  /**
   * The task's latest output, if any: a re-work produces its next version (parentArtifactId);
   * an approved latest output with nothing new since means the task is delivered (done).
   */
  latestArtifact: { id: string; version: number; title: string; content: string; status: ArtifactStatus; createdAt: string } | null;
  /** Whether the task has anything new since its latest output (signals attached or notes posted after it). */
  hasNewInput: boolean;
  /** True when the cycle rules let the engine work the task this cycle (not blocked). */
  workable: boolean;
}

export interface CycleInput {
  /** The cycle's time (the injected clock), ISO. */
  now: string;
  timezone: string;
  focusTags: string[];
  /** Signals no cycle has taken in yet, oldest first. */
  newSignals: EngineSignal[];
  /**
   * Open tasks in the order the cycle rules rank them (focus tags first, spike-paused last);
   * `workable` false for blocked ones. New signals may be attached to any of them.
   */
  tasks: EngineTask[];
  /** How many tasks the engine may work into outputs this cycle (highest ranked first, new tasks included). */
  workBudget: number;
  /**
   * Memory retrieval for a task: the runner records, per task ref, every entry returned, so
   * retrieval counters and the equal-split cost attribution follow what the engine actually pulled.
   * `taskRef` is an existing task id or a `NewTask.ref`.
   */
  searchMemory: (taskRef: string, query: string, limit: number) => Promise<EngineMemory[]>;
  /** Aborts a slow provider when the cycle is cancelled or times out. */
  abortSignal?: AbortSignal;
  /** What the cycle may cost: every model call it makes, at this price, fits in what is left of today's cap. */
  budget: CycleBudget;
  /** Told before each model call (the Runs page and the header show it while the call runs). */
  onModelCall?: (call: ModelCall) => void;
}

/** The cycle's money: the price it is charged at and what is left of today's cap. */
export interface CycleBudget {
  price: ModelPrice;
  /** Micro-USD left of today's cap when the cycle began; null when there is no cap. */
  remainingMicroUsd: number | null;
}

/** One model call as it is sent. */
export interface ModelCall {
  /** 1 for the cycle's call, more for a retry or a repair request. */
  attempt: number;
  /** Prompt tokens counted before sending. */
  inputTokens: number;
  /** The completion bound the call was given. */
  maxOutputTokens: number;
}

/** A task the engine creates from new signals; `ref` names it within the cycle's decisions. */
export interface NewTask {
  ref: string;
  title: string;
  summary: string;
  kind: TaskKind;
  deliverableType: TaskDeliverableType;
  priority: TaskPriority;
  tags: string[];
  signalIds: string[];
}

/** A change to an existing task. */
export interface TaskUpdate {
  taskId: string;
  /** New signals attached (triaged onto this related task). */
  addSignalIds: string[];
  status?: TaskStatus;
  priority?: TaskPriority;
}

/** An output drafted for a task (existing id or new-task ref); `ready` on write. */
export interface ArtifactDraft {
  taskRef: string;
  kind: ArtifactKind;
  title: string;
  content: string;
  /** Signals and memory entries the draft was built from (what the reviewer sees as sources). */
  signalIds: string[];
  memoryIds: string[];
}

export interface MemoryDraft {
  kind: MemoryKind;
  title: string;
  content: string;
  tags: string[];
  importance: number | null;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One work-log line per task the cycle touched (existing id or new-task ref). */
export interface WorkLogEntry {
  taskRef: string;
  entry: string;
  /** Notes read as direction for this task (marked consumed). */
  consumedNoteIds: string[];
  /** Status the task moves to after this cycle (needs_input when it lacks what it needs, done when delivered). */
  status?: TaskStatus;
}

export interface CycleDecisions {
  newTasks: NewTask[];
  taskUpdates: TaskUpdate[];
  artifacts: ArtifactDraft[];
  memory: MemoryDraft[];
  workLog: WorkLogEntry[];
  /** Signals the engine took in (attached, turned into tasks, or judged noise); the runner marks them triaged. */
  triagedSignalIds: string[];
  /** Tokens of the whole cycle. */
  usage: TokenUsage;
  /** Tokens per task ref (what the cost accounting splits per task, memory entry, source, tag, assignee). */
  usageByTask: Record<string, TokenUsage>;
  /** How the engine grouped signals and set priorities, in a sentence or two (the run record shows it). */
  explanation?: string;
  /** The completion bound of the call whose answer this is (the run record shows it). */
  maxOutputTokens?: number;
  /** How the server took the structured answer, when the engine found out this cycle (remembered on the workspace). */
  structuredOutput?: StructuredOutputMode;
}

export interface Engine {
  readonly kind: EngineKind;
  /** The model the usage is priced at (the configured model, also for `local`). */
  readonly model: string;
  runCycle(input: CycleInput): Promise<CycleDecisions>;
  /** A tiny request proving the engine answers (Settings → Test connection); resolves with a line for the user, rejects with EngineError. */
  check?(signal?: AbortSignal): Promise<string>;
}

/** A provider failure the run record shows as is (no stack, no key). */
export class EngineError extends Error {
  /** What the provider billed before the failure (a cut-off or malformed answer is still paid for). */
  billed: TokenUsage = { inputTokens: 0, outputTokens: 0 };

  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }

  /** The same error, carrying what was billed. */
  withBilled(usage: TokenUsage): this {
    this.billed = usage;
    return this;
  }
}

/** Not even the smallest cycle fits in what is left of today's cap: the run is skipped, not failed. */
export class CycleDoesNotFitError extends EngineError {
  constructor(message: string) {
    super(message);
    this.name = 'CycleDoesNotFitError';
  }
}

/** The operator cancelled the cycle while it ran: nothing is applied. */
export class CycleCancelledError extends EngineError {
  constructor(message = 'Cancelled by the operator; nothing this cycle would have written was kept.') {
    super(message);
    this.name = 'CycleCancelledError';
  }
}
