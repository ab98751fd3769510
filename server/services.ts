import type { Db } from '../db/connection';
import type { DeskConfig } from './config';
import type { Clock } from './core/clock';
import type { WorkspaceService } from './domain/workspace/workspace-service';
import type { SignalService } from './domain/signals/signal-service';
import type { ActivityService } from './domain/activity/activity-service';
import type { SourceService } from './domain/sources/source-service';
import type { SourceSync } from './domain/sources/source-sync';
import type { Scheduler } from './jobs/scheduler';
import type { BackupService } from './domain/backups/backup-service';
import type { RelayClient } from './integrations/relay/relay-client';

/** Everything a controller or job may use, built once per running desk by startDesk(). */
export interface Services {
  config: DeskConfig;
  clock: Clock;
  db: Db;
  /** The workspace ingest token: bearer token of the API and address of the inbound webhook. */
  token: string;
  workspace: WorkspaceService;
  scheduler: Scheduler;
  signals: SignalService;
  activity: ActivityService;
  sources: SourceService;
  /** Feed polling and file import of sources (the feed-poll job drives it). */
  sourceSync: SourceSync;
  /** Relay channel client that forwards relayed requests to the inbound webhook (started once the server listens). */
  relay: RelayClient;
  /** Database backups in the data folder (daily job and on demand). */
  backups: BackupService;
}
