/**
 * The desk process's side of the protocol: runs the desk (server, scheduler, SQLite) off
 * Electron's main thread, so a long loop cycle or import never freezes the window or tray.
 * No Electron import: main/desk-process.ts hands it `process.parentPort`, tests a fake port.
 */
import { configFromEnv } from '../server/config';
import { createLogger as createDeskLogger, type Logger } from '../server/core/log';
import type { CostAlert } from '../server/domain/cost-guard/alerts';
import { startDesk, type RunningDesk, type StartOptions } from '../server/start';
import { isToDesk, type LoopState, type ToDesk, type ToMain } from './desk-protocol';

/** Electron's ParentPort, as far as we use it. */
export interface DeskPort {
  postMessage(message: ToMain): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

export interface ServeOptions {
  env?: NodeJS.ProcessEnv;
  /** Tests pass a ManualClock and a scheduler without timer. */
  startOptions?: Omit<StartOptions, 'logger'>;
  createLogger?: typeof createDeskLogger;
  /** How often the loop state is re-read for the tray (the UI or a scheduled resume may change it). */
  loopRefreshMs?: number;
}

export interface DeskService {
  /** Resolves with the exit code once the desk stopped (0) or failed (1). */
  done: Promise<number>;
  /** Reports an error nothing else caught (uncaught exception) as fatal and ends the service. */
  fail(err: unknown): void;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function serveDesk(port: DeskPort, options: ServeOptions = {}): DeskService {
  const env = options.env ?? process.env;
  let log: Logger | null = null;
  let desk: RunningDesk | null = null;
  let loopState: LoopState | null = null;
  let refreshTimer: NodeJS.Timeout | undefined;
  let stopRequested = false;
  let finished = false;
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => (finish = resolve));

  const end = async (code: number, message?: ToMain) => {
    if (finished) return;
    finished = true;
    clearInterval(refreshTimer);
    await log?.close();
    if (message) port.postMessage(message);
    finish(code);
  };

  const fail = (err: unknown) => {
    if (finished) return;
    log?.fatal({ err }, 'desk failed');
    const running = desk;
    desk = null;
    // Best effort: release the database and the data-folder lock before the process exits.
    void (running ? running.stop().catch(() => undefined) : Promise.resolve()).then(() =>
      end(1, { type: 'fatal', message: errorText(err), logFile: log?.file ?? null }),
    );
  };

  const stop = async () => {
    stopRequested = true;
    const running = desk;
    if (!running) return; // still starting: start() stops once it is up
    desk = null;
    clearInterval(refreshTimer);
    try {
      await running.stop();
    } catch (err) {
      log?.error({ err }, 'desk did not stop cleanly');
    }
    await end(0, { type: 'stopped' });
  };

  const postLoopState = async (force = false) => {
    // A desk in rescue mode has no workspace to read until a backup is restored.
    if (!desk || desk.mode !== 'normal') return;
    const { loopState: now } = await desk.services.workspace.profile();
    if (!force && now === loopState) return;
    loopState = now;
    port.postMessage({ type: 'loop', loopState: now });
  };

  const start = async (message: Extract<ToDesk, { type: 'start' }>) => {
    log = (options.createLogger ?? createDeskLogger)({ dataDir: message.dataDir, secrets: [env.DESK_INGEST_TOKEN, env.DESK_OPENAI_API_KEY] });
    // The desktop picks a free port unless told otherwise, so it never clashes with a headless `npm start`.
    const config = {
      ...configFromEnv({ ...env, DESK_PORT: env.DESK_PORT || '0' }),
      dataDir: message.dataDir,
      uiDir: message.uiDir,
      sqliteNativeBinding: message.sqliteNativeBinding,
      ...(message.secretsKey ? { secretsKey: Buffer.from(message.secretsKey, 'base64') } : {}),
    };
    // New cost alerts become one notification in main (posted only while the desk runs).
    const onCostAlert = (alerts: CostAlert[]) => {
      if (!finished && alerts.length > 0) port.postMessage({ type: 'cost-alerts', alerts });
    };
    const running = await startDesk(config, { ...options.startOptions, logger: log, onCostAlert });
    desk = running;
    if (running.mode === 'rescue') {
      // The database failed its check: the window opens the rescue page (server/rescue-desk.ts); no workspace runs yet.
      port.postMessage({ type: 'ready', url: running.url, token: running.token, loopState: 'off', logFile: log.file });
      if (stopRequested) await stop();
      return;
    }
    // A rotation replaces the token main hands the window (a reload must not come back with the old one).
    running.services.workspace.onTokenRotated((token) => port.postMessage({ type: 'token', token }));
    loopState = (await running.services.workspace.profile()).loopState;
    port.postMessage({ type: 'ready', url: running.url, token: running.token, loopState, logFile: log.file });
    // The tray count and overdue notifications: the current counts first, then each change.
    running.services.reviewAttention.onChange((change) => {
      if (!finished) port.postMessage({ type: 'review-attention', ...change });
    });
    refreshTimer = setInterval(() => void postLoopState().catch((err: unknown) => log?.warn({ err }, 'could not read the loop state')), options.loopRefreshMs ?? 30_000);
    if (stopRequested) await stop();
  };

  let started = false;
  port.on('message', ({ data }) => {
    if (!isToDesk(data) || finished) return;
    if (data.type === 'start') {
      if (started) return;
      started = true;
      start(data).catch(fail);
    } else if (data.type === 'set-loop') {
      desk?.services.workspace
        .setLoopState(data.state)
        .then(() => postLoopState(true))
        .catch((err: unknown) => port.postMessage({ type: 'loop-error', message: errorText(err) }));
    } else if (data.type === 'stop') {
      if (!started) void end(0, { type: 'stopped' });
      else void stop();
    }
  });

  return { done, fail };
}
