import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { readCadence } from '../sources/source-context';
import type { WorkspaceService } from '../workspace/workspace-service';
import { exportActivity, type ActivityExport } from './activity-export';
import { streamArtifacts, type ArtifactsExport } from './artifacts-export';
import { fullExport, type FullExport } from './full-export';
import { ImportService, type ImportInput, type ImportReport } from './import-service';
import { streamMemory, type MemoryExport } from './memory-export';
import type { StreamedExport } from './paged';
import { streamSignals, type SignalsExport } from './signals-export';
import { exportSources, type SourcesExport } from './sources-export';
import { exportStaleTasks, type StaleTasksExport } from './stale-tasks-export';
import { streamTasks, type TasksExport } from './tasks-export';

export interface ExportDeps {
  db: Db;
  clock: Clock;
  workspace: WorkspaceService;
}

/** The exports (one module each) and the import, as one object for the controller. */
export class ExportService {
  private readonly importer: ImportService;

  constructor(private readonly d: ExportDeps) {
    this.importer = new ImportService(d.db, d.clock);
  }

  private timezone = async () => (await this.d.workspace.profile()).timezone;

  async sources(): Promise<SourcesExport> {
    return exportSources(this.d.db, await readCadence(this.d), await this.timezone());
  }

  /** Streamed (paged.ts): the rows are read as the answer is written. */
  async activity(query: { since?: string; until?: string }): Promise<StreamedExport<ActivityExport>> {
    return exportActivity(this.d.db, this.d.clock.now(), await this.timezone(), query);
  }

  /** Streamed, with their content (the largest export). */
  artifacts(): Promise<StreamedExport<ArtifactsExport>> {
    return streamArtifacts(this.d.db);
  }

  /** Streamed: every signal, newest received first. */
  signals(): Promise<StreamedExport<SignalsExport>> {
    return streamSignals(this.d.db);
  }

  /** Streamed: every task (done and archived included), newest first. */
  tasks(): Promise<StreamedExport<TasksExport>> {
    return streamTasks(this.d.db);
  }

  async staleTasks(thresholdDays?: number): Promise<StaleTasksExport> {
    return exportStaleTasks(this.d.db, this.d.clock.now(), await this.timezone(), thresholdDays);
  }

  /** Streamed, with their content. */
  async memory(): Promise<StreamedExport<MemoryExport>> {
    return streamMemory(this.d.db, this.d.clock.now(), await this.timezone());
  }

  async full(): Promise<FullExport> {
    return fullExport(this.d.db, await this.d.workspace.profile(), await readCadence(this.d));
  }

  import(input: ImportInput): Promise<ImportReport> {
    return this.importer.importFile(input);
  }
}
