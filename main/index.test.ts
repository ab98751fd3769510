/**
 * main/index.ts against a stand-in `electron` module (the binary cannot run here): the server is
 * forked, the token reaches only the desk window over IPC, the tray drives the loop, quitting stops
 * the desk, a desk that dies shows where its log is and quits, and the review queue's attention
 * reaches the tray, the badge and a notification that opens the queue.
 */
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { CONNECTION_CHANNEL, type ToDesk, type ToMain } from './desk-protocol';

const fake = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- hoisted above the imports
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  class FakeChild extends Emitter {
    sent: unknown[] = [];
    postMessage(message: unknown) {
      this.sent.push(message);
    }
    kill = () => true;
  }
  class FakeWindow extends Emitter {
    static all: FakeWindow[] = [];
    webContents = Object.assign(new Emitter(), { setWindowOpenHandler: () => undefined });
    loadURL = (url: string) => {
      this.loaded = url;
      return Promise.resolve();
    };
    loaded = '';
    constructor(public options: Record<string, unknown>) {
      super();
      FakeWindow.all.push(this);
    }
    show() {}
    hide() {}
    focus() {}
    restore() {}
    isMinimized() {
      return false;
    }
  }
  class FakeTray extends Emitter {
    static last: FakeTray | null = null;
    menu: { label?: string; click?: () => void }[] = [];
    tooltip = '';
    title: string | null = null;
    constructor() {
      super();
      FakeTray.last = this;
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: { label?: string; click?: () => void }[]) {
      this.menu = menu;
    }
    setTitle(title: string) {
      this.title = title;
    }
  }
  class FakeNotification extends Emitter {
    static all: FakeNotification[] = [];
    static supported = true;
    static isSupported() {
      return FakeNotification.supported;
    }
    shown = false;
    constructor(public options: { title: string; body: string }) {
      super();
      FakeNotification.all.push(this);
    }
    show() {
      this.shown = true;
    }
  }
  const state = { child: null as FakeChild | null, forkArgs: [] as unknown[] };
  const app = Object.assign(new Emitter(), {
    getAppPath: () => '/app',
    getPath: () => '/user-data',
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    quit: () => undefined,
    exit: (() => undefined) as (code?: number) => void,
    badge: null as number | null,
    setBadgeCount(count: number) {
      app.badge = count;
      return true;
    },
  });
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    Menu: { buildFromTemplate: (template: unknown) => template },
    nativeImage: { createFromDataURL: () => ({}) },
    // No keychain here: the desk keeps its secrets file plain (main/secrets-key.ts has its own test).
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    shell: { openExternal: () => Promise.resolve() },
    dialog: { showErrorBox: (() => undefined) as (title: string, content: string) => void },
    ipcMain: { handle: (() => undefined) as (channel: string, handler: (event: unknown) => unknown) => void },
    utilityProcess: {
      fork: (...args: unknown[]) => {
        state.forkArgs = args;
        state.child = new FakeChild();
        return state.child;
      },
    },
  };
  return { electron, state, FakeWindow, FakeTray, FakeNotification };
});

vi.mock('electron', () => ({ ...fake.electron, default: fake.electron }));

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz';
const URL_ = 'http://127.0.0.1:51234';
const dataDir = path.join('/tmp', 'desk-main-test');

let exit: Mock<(code?: number) => void>;
let errorBox: Mock<(title: string, content: string) => void>;
let handle: Mock<(channel: string, handler: (event: unknown) => unknown) => void>;

beforeEach(() => {
  vi.resetModules();
  vi.stubEnv('DESK_DATA_DIR', dataDir);
  fake.FakeWindow.all = [];
  fake.FakeNotification.all = [];
  fake.FakeNotification.supported = true;
  fake.electron.app.badge = null;
  fake.electron.app.removeAllListeners();
  exit = vi.fn<(code?: number) => void>();
  errorBox = vi.fn<(title: string, content: string) => void>();
  handle = vi.fn<(channel: string, handler: (event: unknown) => unknown) => void>();
  fake.electron.app.exit = exit;
  fake.electron.dialog.showErrorBox = errorBox;
  fake.electron.ipcMain.handle = handle;
});
afterEach(() => vi.unstubAllEnvs());

/** Loads main/index.ts and answers the start message the way the desk process does. */
async function launch() {
  await import('./index');
  await vi.waitFor(() => expect(fake.state.child?.sent).toHaveLength(1));
  const child = fake.state.child!;
  expect(child.sent[0]).toMatchObject({ type: 'start', dataDir, uiDir: expect.stringContaining('renderer') });
  child.emit('message', { type: 'ready', url: URL_, token: TOKEN, loopState: 'on', logFile: path.join(dataDir, 'logs', 'desk.log') });
  await vi.waitFor(() => expect(fake.FakeWindow.all).toHaveLength(1));
  return { child, win: fake.FakeWindow.all[0] };
}

describe('main process', () => {
  it('forks the desk, shows it, and hands URL and token to the desk window only, over IPC', async () => {
    const { win } = await launch();
    const [modulePath, args] = fake.state.forkArgs as [string, string[]];
    expect(modulePath).toMatch(/desk-process\.js$/);
    expect(JSON.stringify(args)).not.toContain(TOKEN);
    // Nothing about the token on the renderer's command line.
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs.additionalArguments).toBeUndefined();
    expect(JSON.stringify(win.options)).not.toContain(TOKEN);
    expect(prefs).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true });
    expect(win.loaded).toBe(`${URL_}/`);

    expect(handle).toHaveBeenCalledWith(CONNECTION_CHANNEL, expect.any(Function));
    const answer = handle.mock.calls[0][1] as (event: unknown) => unknown;
    const topFrame = { parent: null, url: `${URL_}/signals` };
    expect(answer({ sender: win.webContents, senderFrame: topFrame })).toEqual({ baseUrl: URL_, token: TOKEN });
    expect(() => answer({ sender: new EventEmitter(), senderFrame: topFrame })).toThrow(/not the desk window/);
    expect(() => answer({ sender: win.webContents, senderFrame: { parent: topFrame, url: `${URL_}/` } })).toThrow();
    expect(() => answer({ sender: win.webContents, senderFrame: { parent: null, url: 'https://example.com/' } })).toThrow();
  });

  it('the tray pauses the loop through the desk process and follows its state', async () => {
    const { child } = await launch();
    const tray = fake.FakeTray.last!;
    expect(tray.tooltip).toBe('Desk — Loop: on');
    tray.menu.find((item) => item.label === 'Pause loop')!.click!();
    expect(child.sent.at(-1)).toEqual({ type: 'set-loop', state: 'paused' } satisfies ToDesk);
    child.emit('message', { type: 'loop', loopState: 'paused' });
    expect(tray.tooltip).toBe('Desk — Loop: paused');
    expect(tray.menu.some((item) => item.label === 'Resume loop')).toBe(true);
  });

  it('quitting stops the desk gracefully, then exits', async () => {
    const { child } = await launch();
    const preventDefault = vi.fn();
    fake.electron.app.emit('before-quit', { preventDefault });
    expect(preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(child.sent.at(-1)).toEqual({ type: 'stop' }));
    expect(exit).not.toHaveBeenCalled();
    child.emit('message', { type: 'stopped' });
    child.emit('exit', 0);
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
    expect(errorBox).not.toHaveBeenCalled();
  });

  it('a desk process that exits unexpectedly: a dialog names the log file, and the app quits', async () => {
    const { child } = await launch();
    child.emit('exit', 1);
    expect(errorBox).toHaveBeenCalledWith('Desk stopped', expect.stringContaining(path.join(dataDir, 'logs', 'desk.log')));
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('a desk that cannot start: the dialog says why and where the log is', async () => {
    await import('./index');
    await vi.waitFor(() => expect(fake.state.child?.sent).toHaveLength(1));
    fake.state.child!.emit('message', { type: 'fatal', message: 'Port 4477 is busy', logFile: path.join(dataDir, 'logs', 'desk.log') });
    fake.state.child!.emit('exit', 1);
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(1));
    expect(errorBox).toHaveBeenCalledWith('Desk could not start', expect.stringMatching(/Port 4477 is busy[\s\S]*desk-main-test\/logs\/desk\.log/));
    expect(fake.FakeWindow.all).toHaveLength(0);
  });

  describe('review attention', () => {
    const overdueNow = {
      type: 'review-attention',
      ready: 5,
      watch: 1,
      overdue: 2,
      newlyOverdue: [
        { id: 'art_01', title: 'Quarterly churn report' },
        { id: 'art_02', title: 'Reply to Ann' },
      ],
      newlyOverdueTotal: 2,
    } satisfies ToMain;

    it('shows the overdue count in the tray and the badge, and notifies; a click opens the overdue queue', async () => {
      const { child, win } = await launch();
      const tray = fake.FakeTray.last!;
      expect(tray.menu.find((item) => item.label?.startsWith('Review queue'))?.label).toBe('Review queue');
      child.emit('message', overdueNow);
      expect(tray.tooltip).toBe('Desk: 2 outputs overdue — Loop: on');
      expect(fake.electron.app.badge).toBe(2); // Linux takes a badge count
      expect(tray.title).toBeNull(); // the menu-bar title is macOS-only
      expect(fake.FakeNotification.all).toHaveLength(1);
      const [notice] = fake.FakeNotification.all;
      expect(notice.options).toEqual({ title: '2 outputs are overdue for review', body: '“Quarterly churn report” and 1 more wait for your decision.' });
      expect(notice.shown).toBe(true);
      notice.emit('click');
      expect(win.loaded).toBe(`${URL_}/outputs?attention=overdue`);

      // The tray's queue line opens the same filter.
      win.loaded = '';
      const line = tray.menu.find((item) => item.label === 'Review queue: 5 waiting, 2 overdue')!;
      line.click!();
      expect(win.loaded).toBe(`${URL_}/outputs?attention=overdue`);
      // The loop state still shows after a loop change.
      child.emit('message', { type: 'loop', loopState: 'paused' });
      expect(tray.tooltip).toBe('Desk: 2 outputs overdue — Loop: paused');
    });

    it('one newly overdue output opens itself; a change of counts alone updates the tray without a notification', async () => {
      const { child, win } = await launch();
      child.emit('message', { ...overdueNow, overdue: 1, newlyOverdue: [overdueNow.newlyOverdue[0]], newlyOverdueTotal: 1 });
      expect(fake.FakeNotification.all.map((n) => n.options.title)).toEqual(['An output is overdue for review']);
      fake.FakeNotification.all[0].emit('click');
      expect(win.loaded).toBe(`${URL_}/outputs/art_01`);

      // The output was approved: it leaves the count, the badge clears, nobody is notified.
      child.emit('message', { type: 'review-attention', ready: 4, watch: 1, overdue: 0, newlyOverdue: [], newlyOverdueTotal: 0 });
      expect(fake.FakeTray.last!.tooltip).toBe('Desk — Loop: on');
      expect(fake.electron.app.badge).toBe(0);
      expect(fake.FakeNotification.all).toHaveLength(1);
    });

    it('DESK_NOTIFICATIONS=off, or an OS without notifications: the tray and badge still count, no notification', async () => {
      vi.stubEnv('DESK_NOTIFICATIONS', 'off');
      const { child } = await launch();
      child.emit('message', overdueNow);
      expect(fake.FakeTray.last!.tooltip).toBe('Desk: 2 outputs overdue — Loop: on');
      expect(fake.electron.app.badge).toBe(2);
      expect(fake.FakeNotification.all).toHaveLength(0);

      vi.stubEnv('DESK_NOTIFICATIONS', '');
      fake.FakeNotification.supported = false;
      child.emit('message', overdueNow);
      expect(fake.FakeNotification.all).toHaveLength(0);
    });

    it('on macOS the menu-bar title shows the overdue count', async () => {
      const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
      Object.defineProperty(process, 'platform', { value: 'darwin' });
      try {
        const { child } = await launch();
        child.emit('message', overdueNow);
        expect(fake.FakeTray.last!.title).toBe('2');
        child.emit('message', { ...overdueNow, overdue: 0, newlyOverdue: [], newlyOverdueTotal: 0 });
        expect(fake.FakeTray.last!.title).toBe('');
      } finally {
        Object.defineProperty(process, 'platform', platform);
      }
    });
  });
});
