/**
 * Messages between Electron's main process and the desk's utility process (main/desk-process.ts),
 * and the IPC channel through which the preload asks main for the API's URL and token.
 * Types and constants only: preload, main and the utility process all bundle this file.
 */
import type { ReviewAttentionChange } from '../server/domain/artifacts/attention-watcher';
import type { CostAlert } from '../server/domain/cost-guard/alerts';
import type { RunningDesk } from '../server/start';

export type LoopState = Awaited<ReturnType<RunningDesk['services']['workspace']['profile']>>['loopState'];

/**
 * The review queue's attention for the tray, badge and notification: counts of ready outputs (and of
 * those labelled watch and overdue), plus the outputs that just crossed into overdue (at most 10 listed,
 * oldest first; newlyOverdueTotal counts them all).
 */
export type ReviewAttention = ReviewAttentionChange;

/** New cost alerts of one detector run (spikes, chronic warnings; never while acknowledged). */
export interface CostAlertsMessage {
  type: 'cost-alerts';
  alerts: CostAlert[];
}

/** main -> desk process */
export type ToDesk =
  /** First message: what the desk process cannot work out alone (Electron-only paths). */
  | {
      type: 'start';
      dataDir: string;
      uiDir: string;
      sqliteNativeBinding?: string;
      /** base64, 32 bytes: encrypts the secrets file (main keeps it with safeStorage; absent where the OS has no keychain). */
      secretsKey?: string;
    }
  /** The tray's Pause / Resume. */
  | { type: 'set-loop'; state: 'on' | 'paused' }
  /** Quit: stop gracefully (scheduler, in-flight requests, database), then exit. */
  | { type: 'stop' };

/** desk process -> main */
export type ToMain =
  | { type: 'ready'; url: string; token: string; loopState: LoopState; logFile: string | null }
  /** The loop state changed (the tray's own request, the UI, or a scheduled resume). */
  | { type: 'loop'; loopState: LoopState }
  | { type: 'loop-error'; message: string }
  /** The review queue's attention changed (sent only on a change; the first one right after ready). */
  | ({ type: 'review-attention' } & ReviewAttention)
  /** The cost guard raised new alerts: one notification (DESK_NOTIFICATIONS=off silences it). */
  | CostAlertsMessage
  /** The workspace token was rotated (Settings > Integrations): the renderer must be handed the new one from now on. */
  | { type: 'token'; token: string }
  | { type: 'stopped' }
  /** The desk could not start, or failed beyond repair; the process exits next. */
  | { type: 'fatal'; message: string; logFile: string | null };

/** What the renderer is told: where the API is and its bearer token. */
export interface DeskConnection {
  baseUrl: string;
  token: string;
}

/** ipcRenderer.invoke channel answered by main, for the desk window only. */
export const CONNECTION_CHANNEL = 'desk:connection';

const TO_DESK = new Set<ToDesk['type']>(['start', 'set-loop', 'stop']);
const TO_MAIN = new Set<ToMain['type']>(['ready', 'loop', 'loop-error', 'review-attention', 'cost-alerts', 'token', 'stopped', 'fatal']);

const typeOf = (value: unknown): unknown => (typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined);

export function isToDesk(value: unknown): value is ToDesk {
  return TO_DESK.has(typeOf(value) as ToDesk['type']);
}

export function isToMain(value: unknown): value is ToMain {
  return TO_MAIN.has(typeOf(value) as ToMain['type']);
}
