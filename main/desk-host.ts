/**
 * Main's side of the protocol with the desk's utility process. No Electron import: index.ts hands
 * it the UtilityProcess from utilityProcess.fork(), tests a fake (or serveDesk over an in-memory port).
 */
import { isToMain, type CostAlertsMessage, type LoopState, type ReviewAttention, type ToDesk, type ToMain } from './desk-protocol';

/** Electron's UtilityProcess, as far as we use it. */
export interface DeskChild {
  postMessage(message: ToDesk): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export type Ready = Extract<ToMain, { type: 'ready' }>;

export interface DeskHostEvents {
  onLoopState(state: LoopState): void;
  onLoopError(message: string): void;
  /** The review queue's attention changed: tray count, badge, and a notification for newly overdue outputs. */
  onReviewAttention?(attention: ReviewAttention): void;
  onCostAlerts?(alerts: CostAlertsMessage['alerts']): void;
  /** The workspace token was rotated: what the renderer is handed (its connection) must change. */
  onToken?(token: string): void;
  /** The desk died after it was ready (fatal error or exit) while nobody asked it to stop. */
  onCrash(problem: { message: string; logFile: string | null }): void;
}

export class DeskHost {
  private ready: Ready | null = null;
  private fatal: Extract<ToMain, { type: 'fatal' }> | null = null;
  private exited = false;
  private stopping: Promise<void> | null = null;
  private readonly exit: Promise<number>;
  private startWaiter: { resolve(ready: Ready): void; reject(err: Error): void } | null = null;

  constructor(
    private readonly child: DeskChild,
    private readonly events: DeskHostEvents,
  ) {
    child.on('message', (message) => {
      if (isToMain(message)) this.receive(message);
    });
    this.exit = new Promise((resolve) =>
      child.on('exit', (code) => {
        this.exited = true;
        resolve(code);
        this.exitedWith(code);
      }),
    );
  }

  /** Sends the start message; resolves once the desk serves, rejects if it fails first. */
  start(request: Extract<ToDesk, { type: 'start' }>): Promise<Ready> {
    return new Promise<Ready>((resolve, reject) => {
      this.startWaiter = { resolve, reject };
      this.child.postMessage(request);
    });
  }

  setLoop(state: 'on' | 'paused'): void {
    if (this.ready && !this.stopping && !this.exited) this.child.postMessage({ type: 'set-loop', state });
  }

  /** Asks the desk to stop gracefully and waits for its exit; kills it after `timeoutMs`. */
  stop(timeoutMs: number): Promise<void> {
    this.stopping ??= (async () => {
      if (this.exited) return;
      // After a fatal report the desk has already released what it could: nothing to wait for.
      if (this.fatal) {
        this.child.kill();
        return;
      }
      this.child.postMessage({ type: 'stop' });
      let timer: NodeJS.Timeout | undefined;
      const stopped = new Promise<void>((resolve) => (this.onStopped = resolve));
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      const outcome = await Promise.race([stopped, this.exit, timedOut]);
      clearTimeout(timer);
      // 'stopped' means everything is closed; a late process is ended rather than waited for.
      if (!this.exited) this.child.kill();
      if (outcome === 'timeout') throw new Error(`the desk did not stop within ${Math.round(timeoutMs / 1000)} s`);
    })();
    return this.stopping;
  }

  private onStopped: () => void = () => undefined;

  private receive(message: ToMain): void {
    switch (message.type) {
      case 'ready':
        this.ready = message;
        this.startWaiter?.resolve(message);
        this.startWaiter = null;
        break;
      case 'loop':
        this.events.onLoopState(message.loopState);
        break;
      case 'loop-error':
        this.events.onLoopError(message.message);
        break;
      case 'cost-alerts':
        this.events.onCostAlerts?.(message.alerts);
        break;
      case 'review-attention': {
        const { type: _type, ...attention } = message;
        this.events.onReviewAttention?.(attention);
        break;
      }
      case 'token':
        if (this.ready) this.ready = { ...this.ready, token: message.token };
        this.events.onToken?.(message.token);
        break;
      case 'stopped':
        this.onStopped();
        break;
      case 'fatal':
        this.fatal = message;
        if (this.startWaiter) {
          this.startWaiter.reject(new Error(message.message));
          this.startWaiter = null;
        } else if (!this.stopping) {
          this.events.onCrash({ message: message.message, logFile: message.logFile });
        }
        break;
    }
  }

  private exitedWith(code: number): void {
    if (this.startWaiter) {
      this.startWaiter.reject(new Error(this.fatal?.message ?? `the desk process exited (code ${code}) before it was ready`));
      this.startWaiter = null;
    } else if (!this.stopping && !this.fatal) {
      this.events.onCrash({ message: `the desk process exited unexpectedly (code ${code})`, logFile: this.ready?.logFile ?? null });
    }
  }
}
