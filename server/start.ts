import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { openDatabase } from '../db/connection';
import type { DeskConfig } from './config';
import { systemClock, type Clock } from './core/clock';
import { lockDataDir } from './core/data-dir-lock';
import { buildApp } from './app';
import { WorkspaceService } from './domain/workspace/workspace-service';
import { SignalService } from './domain/signals/signal-service';
import { ActivityService } from './domain/activity/activity-service';
import { SourceService } from './domain/sources/source-service';
import { SourceSync } from './domain/sources/source-sync';
import { inboundWebhookMount } from './api/webhooks/inbound-mount';
import { Scheduler } from './jobs/scheduler';
import { pauseResumeJob } from './jobs/workspace-jobs';
import { feedPollerJob } from './jobs/feed-poller';
import { sourcePauseExpiryJob, sourceQuietnessJob } from './jobs/source-jobs';
import { RelayClient } from './integrations/relay/relay-client';
import { applyRelaySettings } from './integrations/relay/relay-settings';
import type { Services } from './services';

/** How long stop() waits for in-flight requests before cutting their connections. */
export const STOP_GRACE_MS = 10_000;

export interface StartOptions {
  clock?: Clock;
  /** Start the scheduler's timer (tests drive it by hand with services.scheduler.tick()). */
  runScheduler?: boolean;
}

export interface RunningDesk {
  url: string;
  token: string;
  services: Services;
  stop(): Promise<void>;
}

/** Starts the whole desk in-process: database, API, UI and scheduler. Used by the CLI and Electron. */
export async function startDesk(config: DeskConfig, options: StartOptions = {}): Promise<RunningDesk> {
  const clock = options.clock ?? systemClock;
  fs.mkdirSync(config.dataDir, { recursive: true });
  const unlock = lockDataDir(config.dataDir);
  let database: Awaited<ReturnType<typeof openDatabase>>;
  let ingestToken: string;
  try {
    database = await openDatabase(path.join(config.dataDir, 'desk.sqlite'), { nativeBinding: config.sqliteNativeBinding });
  } catch (err) {
    unlock();
    throw err;
  }
  const { db } = database;
  const workspace = new WorkspaceService(db, clock);
  try {
    ({ ingestToken } = await workspace.ensureCreated(config.seed));
  } catch (err) {
    await database.close();
    unlock();
    throw err;
  }
  const scheduler = new Scheduler(db, clock);
  const sourceSync = new SourceSync(db, clock, workspace);
  const sources = new SourceService(db, clock, workspace, sourceSync);
  const services: Services = {
    config,
    clock,
    db,
    token: ingestToken,
    workspace,
    scheduler,
    signals: new SignalService(db, clock, workspace),
    activity: new ActivityService(db, workspace),
    sources,
    sourceSync,
    relay: new RelayClient({ clock, token: ingestToken }),
  };

  scheduler.register(pauseResumeJob(workspace));
  scheduler.register(feedPollerJob(sourceSync));
  scheduler.register(sourcePauseExpiryJob(sources));
  scheduler.register(sourceQuietnessJob(sources));

  const app = buildApp(services, [inboundWebhookMount]);
  const server = http.createServer(app);
  server.keepAliveTimeout = 5_000;
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
    unlock();
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

  if (options.runScheduler ?? true) scheduler.start();
  // The relay delivers to this server's own webhook, so it can only start once the URL is known.
  services.relay.setLocalBaseUrl(url);
  await applyRelaySettings(services);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await services.relay.stop();
      await scheduler.stop();
      // close() stops accepting and resolves once in-flight requests have finished.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Without this a finished keep-alive connection would hold close() for keepAliveTimeout.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        server.closeIdleConnections();
        // A stalled client must not hold shutdown open: give in-flight work a grace period.
        setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS).unref();
      });
      await database.close();
      unlock();
    })();
    return stopping;
  };

  return { url, token: ingestToken, services, stop };
}
