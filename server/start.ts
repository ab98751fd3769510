import path from 'node:path';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { openDatabase } from '../db/connection';
import { DATABASE_FILE, type DeskConfig } from './config';
import { checkFileOffThread, DatabaseDamagedError } from '../db/integrity';
import { databaseGuard } from './database-guard';
import { startRescueDesk } from './rescue-desk';
import { systemClock, type Clock } from './core/clock';
import { DiskSpace } from './core/disk-space';
import { createLogger, type Logger } from './core/log';
import { lockDataDir } from './core/data-dir-lock';
import { makeDataDirPrivate } from './core/private-data';
import { buildApp } from './app';
import { WorkspaceService } from './domain/workspace/workspace-service';
import { SignalService } from './domain/signals/signal-service';
import { ActivityService } from './domain/activity/activity-service';
import { raiseIdFloorToStored } from './domain/activity/activity';
import { SearchService } from './domain/search/search-service';
import { TagService } from './domain/tags/tag-service';
import { OnboardingService } from './domain/onboarding/apply-template';
import { SourceService } from './domain/sources/source-service';
import { SourceSync } from './domain/sources/source-sync';
import { stampFreshSignal } from './domain/sources/source-store';
import { TaskService } from './domain/tasks/task-service';
import { MemoryService } from './domain/memory/memory-service';
import { CostService } from './domain/cost/cost-service';
import { CostGuardService } from './domain/cost-guard/cost-guard-service';
import type { CostAlert } from './domain/cost-guard/alerts';
import { OutboundService } from './domain/outbound/outbound-service';
import { ExportService } from './domain/exports/export-service';
import { EventStream } from './domain/events/event-stream';
import { inboundWebhookMount } from './api/webhooks/inbound-mount';
import { Scheduler } from './jobs/scheduler';
import { registerAreaJobs } from './jobs/index';
import { FEED_POLL_JOB } from './jobs/feed-poller';
import { BACKUP_FOLDER, BackupService, upgradeBackupName } from './domain/backups/backup-service';
import { RelayClient } from './integrations/relay/relay-client';
import { IngestTokenService } from './domain/ingest/ingest-service';
import { McpTokenService } from './domain/mcp-tokens/mcp-token-service';
import { mcpMount } from './mcp/http-mount';
import { writeDeskAddress } from './core/desk-address';
import { CommentService } from './domain/comments/comment-service';
import { ShareService } from './domain/sharing/share-service';
import { sharePagesMount } from './api/sharing/share-mount';
import { publicPagesMount } from './api/public/public-pages-mount';
import { MemberService } from './domain/members/member-service';
import { TemplateService } from './domain/templates/template-service';
import { DashboardPrefsService } from './domain/dashboard-prefs/prefs-service';
import { DigestService } from './domain/digest/digest-service';
import { SavedSearchService } from './domain/saved-searches/saved-search-service';
import { LoopService } from './domain/loop/loop-service';
import { inlineExecutor } from './domain/loop/cycle-executor';
import { WorkerCycleExecutor } from './domain/loop/cycle-worker-executor';
import { StatsService } from './domain/stats/stats-service';
import { RoadmapService } from './domain/roadmap/roadmap-service';
import { BadgeService } from './domain/badge/badge-service';
import { OverviewService } from './domain/overview/overview-service';
import { createEngine, type EngineSettings, type Engine } from './engine/index';
import { commentTimelineSource } from './domain/comments/comment-timeline';

// Comments join every task timeline (the tasks area's extension point).
import { applyRelaySettings } from './domain/relay/relay-settings';
import { ArtifactService } from './domain/artifacts/artifact-service';
import { ReviewAttentionWatcher } from './domain/artifacts/attention-watcher';
import { REVIEW_ATTENTION_JOB } from './jobs/review-jobs';
import type { Services } from './services';
import { EngineSettingsService } from './domain/engine-settings/engine-settings-service';
import { SecretStore } from './engine/secrets';
import { startIdleGc } from './core/idle-gc';
import { version } from '../package.json';

/** How long stop() waits for in-flight requests before cutting their connections. */
export const STOP_GRACE_MS = 10_000;

export interface StartOptions {
  clock?: Clock;
  /** Start the scheduler's timer (tests drive it by hand with services.scheduler.tick()). */
  runScheduler?: boolean;
  /** Collect garbage when the desk goes idle after work (server/core/idle-gc.ts); default on, test desks off. */
  idleGc?: boolean;
  /** Where the desk logs; by default a logger of its own writing to `<dataDir>/logs/desk.log`, closed by stop(). */
  logger?: Logger;
  /** New cost alerts of each detector run (spikes and chronic warnings, none while acked): the desktop shows them as notifications. */
  onCostAlert?: (alerts: CostAlert[]) => void;
  /** Builds the loop's engine from the workspace's engine settings (default: the built-in engines). Cycles then run inline. */
  engineFor?: (settings: EngineSettings) => Engine;
  /** Free bytes on the data folder's disk (tests stand in for a disk; default: statfs). */
  diskFreeBytes?: (dir: string) => number;
  /**
   * Where loop cycles run without `engineFor`: `worker` (default), a worker thread with its own
   * database connection, so a cycle never holds the API's event loop; `inline` on this thread.
   */
  cycleExecution?: 'worker' | 'inline';
}

export interface RunningDesk {
  url: string;
  token: string;
  /**
   * `rescue`: the database failed its check at start (server/rescue-desk.ts); there are no services
   * until a backup is restored, and reading `services` throws. `normal` otherwise.
   */
  readonly mode: 'normal' | 'rescue';
  services: Services;
  stop(): Promise<void>;
}

/** The running desk of a rescue desk: itself until a restore, then the full desk it started. */
function rescueRunningDesk(rescue: Awaited<ReturnType<typeof startRescueDesk<RunningDesk>>>): RunningDesk {
  return {
    get url() {
      return rescue.resumed()?.url ?? rescue.url;
    },
    get token() {
      return rescue.token;
    },
    get mode() {
      return rescue.resumed()?.mode ?? 'rescue';
    },
    get services(): Services {
      const resumed = rescue.resumed();
      if (!resumed) throw new Error('the desk is in rescue mode: its database failed its check, so no service runs until a backup is restored');
      return resumed.services;
    },
    stop: () => rescue.stop(),
  };
}

function answerClientError(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify(
    tooLarge
      ? { error: 'bad_request', message: 'The request line or headers are larger than 16 kB; send long values in a JSON body' }
      : { error: 'bad_request', message: 'The request is not valid HTTP' },
  );
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * Starts the whole desk in-process: database, API, UI and scheduler. Used by the CLI and Electron.
 * A database that fails its check starts the rescue desk instead (server/rescue-desk.ts): at once
 * when the check ran before opening, or, for a large file checked on a worker thread while the desk
 * started, as soon as the check fails (the desk stops and the rescue desk takes its port). The
 * returned desk is whichever runs now.
 */
export async function startDesk(config: DeskConfig, options: StartOptions = {}): Promise<RunningDesk> {
  let current: RunningDesk;
  let switching: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  const onDamaged = (damage: DatabaseDamagedError) => {
    switching ??= (async () => {
      const port = Number(new URL(current.url).port);
      await current.stop();
      current = await startDeskOnce({ ...config, port }, options, onDamaged, damage);
    })();
  };
  current = await startDeskOnce(config, options, onDamaged);
  return {
    get url() {
      return current.url;
    },
    get token() {
      return current.token;
    },
    get mode() {
      return current.mode;
    },
    get services() {
      return current.services;
    },
    stop() {
      // One shutdown however often it is asked for (the same promise).
      stopping ??= (async () => {
        if (switching) await switching.catch(() => {});
        await current.stop();
      })();
      return stopping;
    },
  };
}

async function startDeskOnce(config: DeskConfig, options: StartOptions, onDamaged: (damage: DatabaseDamagedError) => void, knownDamage?: DatabaseDamagedError): Promise<RunningDesk> {
  const clock = options.clock ?? systemClock;
  makeDataDirPrivate(config.dataDir);
  const takeovers: string[] = [];
  const unlockDir = lockDataDir(config.dataDir, { onTakeover: (message) => takeovers.push(message) });
  // Opened after the lock: only the desk that owns the data folder writes (and rotates) its log.
  const log = options.logger ?? createLogger({ dataDir: config.dataDir });
  for (const message of takeovers) log.warn(message);
  for (const secret of [config.seed.ingestToken, config.openai.apiKey]) log.addSecret(secret);
  // Releases the data folder, and closes the log if this desk opened it: after stop() or a failed start.
  const unlock = async () => {
    unlockDir();
    if (!options.logger) await log.close();
  };
  const dbFile = path.join(config.dataDir, DATABASE_FILE);
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let ingestToken: string;
  let engineSettings: EngineSettingsService;
  try {
    if (knownDamage) throw knownDamage;
    database = await openDatabase(dbFile, {
      nativeBinding: config.sqliteNativeBinding,
      synchronous: config.sqliteSynchronous,
      // An older database is copied into the backups folder before its schema changes (db/migrate.ts).
      upgradeBackup: (from, to) => path.join(config.dataDir, BACKUP_FOLDER, upgradeBackupName(clock.now(), from, to)),
      now: () => clock.now(),
    });
  } catch (err) {
    if (err instanceof DatabaseDamagedError) {
      // Not opened for writes: the rescue desk offers a restore, then starts this desk again on its port.
      const rescue = await startRescueDesk<RunningDesk>({ config, clock, log, damage: err, unlock, resume: (port) => startDeskOnce({ ...config, port }, options, onDamaged) });
      return rescueRunningDesk(rescue);
    }
    await unlock();
    throw err;
  }
  const { db, migrated } = database;
  if (migrated?.backup) log.info(`Upgraded the database from schema ${migrated.from} to ${migrated.to}; the copy taken before the upgrade is ${migrated.backup}`);
  // New ids sort after the stored ones even when the clock went back while the desk was stopped.
  await raiseIdFloorToStored(db);
  const guard = databaseGuard({ file: dbFile, verified: () => database.verified(), onDamaged, log });
  const workspace = new WorkspaceService(db, clock);
  try {
    let created: boolean;
    ({ ingestToken, created } = await workspace.ensureCreated(config.seed));
    engineSettings = new EngineSettingsService({ db, clock, secrets: new SecretStore(config.dataDir, config.secretsKey ?? null), envApiKey: config.openai.apiKey ?? null, onSecret: (v) => log.addSecret(v) });
    if (created) await engineSettings.seedFromConfig(config);
  } catch (err) {
    await database.close();
    await unlock();
    throw err;
  }
  log.addSecret(ingestToken);
  const diskSpace = new DiskSpace(config.dataDir, {
    now: () => clock.now(),
    neededBytes: config.minFreeDiskBytes,
    freeBytes: options.diskFreeBytes,
    onChange: (full) =>
      full
        ? log.error({ freeBytes: full.freeBytes, neededBytes: full.neededBytes }, 'the disk is full: writes answer 507 and scheduled work is held until there is room')
        : log.info('the disk has room again: scheduled work resumes'),
  });
  // A full disk holds every job (the loop's cycles, feed polls, sweeps); a look at the disk each round resumes them.
  const scheduler = new Scheduler(db, clock, log.child({ component: 'scheduler' }), { held: () => guard.holding() || diskSpace.check() !== null, onFailure: (err) => diskSpace.noteFailure(err) });
  const sourceSync = new SourceSync(db, clock, workspace);
  // A user who adds a feed expects its items now, not at the next poll round.
  const sources = new SourceService({ db, clock, workspace }, sourceSync, { onFeedAdded: () => scheduler.nudge(FEED_POLL_JOB) });
  const signals = new SignalService(db, clock, workspace, stampFreshSignal);
  // The engine of the workspace's settings; the openai engine's key is read per cycle (Settings may replace it).
  const apiKeyFor = (s: EngineSettings) => (s.engine === 'openai' ? engineSettings.apiKey() : null);
  const executor = options.engineFor
    ? inlineExecutor({ db, clock, engineFor: options.engineFor })
    : options.cycleExecution === 'inline'
      ? inlineExecutor({ db, clock, engineFor: (s) => createEngine(s, apiKeyFor(s)) })
      : new WorkerCycleExecutor({ db, file: dbFile, nativeBinding: config.sqliteNativeBinding, synchronous: config.sqliteSynchronous, apiKeyFor });
  // A spike is caught the moment the cycle that caused it commits (the cost guard's job is the safety net).
  const afterCycle = () =>
    void services.costGuard.detectSpikes().catch((err: unknown) => log.warn({ err }, 'cost-spike detection after a cycle failed'));
  const loop = new LoopService({ db, clock, executor, onCycleFinished: afterCycle });
  // Comments join every task's timeline (the comments area owns them; tasks cannot import it).
  const tasks = new TaskService({ db, clock, workspace }, [commentTimelineSource]);
  const stats = new StatsService(db, clock, loop);
  const artifacts = new ArtifactService(db, clock, workspace);
  const overview = new OverviewService({ db, clock, tasks });
  const cost = new CostService({ db, clock, workspace, capState: () => loop.runtime() });
  const costGuard = new CostGuardService({ db, clock, onAlert: options.onCostAlert });
  const services: Services = {
    config,
    clock,
    diskSpace,
    db,
    token: ingestToken,
    localUrl: '',
    workspace,
    scheduler,
    signals,
    activity: new ActivityService(db, workspace),
    sources,
    sourceSync,
    // Relayed events go straight to the signal service (not over HTTP): no webhook limit can drop them.
    relay: new RelayClient({ clock, deliver: (request) => signals.receiveRelayed(request), log: log.child({ component: 'relay' }) }),
    ingest: new IngestTokenService(db, clock),
    mcpTokens: new McpTokenService(db, clock),
    backups: new BackupService(db, clock, config.dataDir, (file) => database.backup(file), (file, mode) => checkFileOffThread(file, mode, config.sqliteNativeBinding)),
    comments: new CommentService(db, clock, workspace),
    sharing: new ShareService(db, clock, workspace),
    members: new MemberService(db, clock),
    templates: new TemplateService(db, clock),
    savedSearches: new SavedSearchService(db, clock),
    tasks,
    artifacts,
    loop,
    stats,
    engineSettings,
    memory: new MemoryService({ db, clock, workspace }),
    reviewAttention: new ReviewAttentionWatcher({
      db,
      clock,
      workspace,
      // The watch job's last finished run is the previous process's last look (outputs that crossed since are news).
      lastLookedAt: () => scheduler.lastFinishedAt(REVIEW_ATTENTION_JOB),
      log: log.child({ component: 'review-attention' }),
    }),
    cost,
    overview,
    costGuard,
    eventStream: new EventStream(db),
    // Wakes on every outbox write when the scheduler runs (tests drive it with worker.settle()).
    outbound: new OutboundService(db, clock, { deliverOnWrite: options.runScheduler ?? true, log: log.child({ component: 'outbound' }) }),
    exports: new ExportService({ db, clock, workspace }),
    search: new SearchService(db, { onIndexError: (err) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'search index catch-up failed') }),
    tags: new TagService(db, clock),
    dashboardPrefs: new DashboardPrefsService(db, clock),
    // The digest reads the other areas through their services, built above.
    digest: new DigestService({
      db,
      clock,
      artifacts,
      overview,
      cost,
      costGuard,
      sources,
      mail: { smtpUrl: config.smtpUrl, dataDir: config.dataDir },
      deskUrl: () => services.localUrl,
      warn: (message) => log.warn(message),
    }),
    roadmap: new RoadmapService(db, clock),
    badge: new BadgeService(db, clock, stats),
    onboarding: new OnboardingService(db, clock),
  };
  // A change of an owner's or admin's digest preferences is a gating change: the digest audit records it.
  services.dashboardPrefs.onDigestPrefsChanged((trx, actor, prefs) => services.digest.recordPrefsGating(trx, actor, prefs));
  // A rotated token takes over everywhere it is read (bearer auth and the webhook read services.token
  // per request) and is scrubbed from the log like the first one.
  workspace.onTokenRotated((token) => {
    services.token = token;
    log.addSecret(token);
  });

  registerAreaJobs(scheduler, services);
  await services.eventStream.start();

  const app = buildApp(services, [inboundWebhookMount, sharePagesMount, publicPagesMount, mcpMount], log.child({ component: 'http' }), { gate: guard.gate, onDatabaseDamage: (err) => guard.onDatabaseDamage(err) });
  const server = http.createServer(app);
  server.keepAliveTimeout = 5_000;
  // Requests Node refuses before Express sees them (a URL or headers over 16 kB, a broken request
  // line) still get the one error shape instead of an empty body.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => answerClientError(err, socket));
  // Responses still being worked on when stop() is called; their connections close after them.
  const inFlight = new Set<http.ServerResponse>();
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch(async (err: NodeJS.ErrnoException) => {
    await database.close();
    await unlock();
    if (err.code === 'EADDRINUSE') {
      throw new Error(
        `Port ${config.port} on ${config.host} is already in use (another Desk may be running there). Set DESK_PORT to another port, or to 0 to pick a free one.`,
      );
    }
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  log.info({ version, host: config.host, port, dataDir: config.dataDir, engine: config.engine }, 'desk started');
  guard.release();

  if (options.runScheduler ?? true) {
    scheduler.start();
    // The cycle worker loads its modules off this thread while the desk already answers; a failure here shows again at the first cycle.
    loop.prepare().then(
      () => log.info({ cycles: executor instanceof WorkerCycleExecutor ? 'worker' : 'inline' }, 'loop ready'),
      (err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'cycle worker not ready'),
    );
  }
  services.localUrl = url;
  // Local tools (npm run mcp) find the desk of a data folder here.
  const forgetAddress = writeDeskAddress(config.dataDir, url);
  await applyRelaySettings(services);

  const stopIdleGc = (options.idleGc ?? true) ? startIdleGc() : () => {};

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      log.info('desk stopping');
      stopIdleGc();
      await services.relay.stop();
      await scheduler.stop();
      await services.reviewAttention.stop();
      // Open event streams end now: server.close() waits for every response.
      services.eventStream.stop();
      // A Run now answered over HTTP is not a scheduler job: wait for it too before closing the database.
      await loop.idle();
      // POSTs under way are aborted; their deliveries stay pending and go out after a restart.
      await services.outbound.stop();
      // close() stops accepting and resolves once in-flight requests have finished.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Without this a finished keep-alive connection would hold close() for keepAliveTimeout.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        server.closeIdleConnections();
        // A stalled client must not hold shutdown open: give in-flight work a grace period.
        setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
      });
      // The cycle worker (if started) closes its connection before the desk's own closes.
      await loop.close();
      await database.close();
      forgetAddress();
      log.info('desk stopped');
      await unlock();
    })();
    return stopping;
  };

  return {
    url,
    mode: 'normal',
    // The current token (it changes when rotated).
    get token() {
      return services.token;
    },
    services,
    stop,
  };
}
