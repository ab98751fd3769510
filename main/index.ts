/**
 * Electron main process: window, tray, single-instance lock. The desk itself (server, scheduler,
 * SQLite) runs in a utility process (desk-process.ts), so this UI thread never waits on it.
 * Keep this file thin: the protocol lives in desk-protocol.ts / desk-host.ts.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, safeStorage, shell, Tray, utilityProcess, type IpcMainInvokeEvent } from 'electron';
import { logFilePath } from '../server/core/log';
import { DeskHost } from './desk-host';
import { CONNECTION_CHANNEL, type DeskConnection, type LoopState, type ReviewAttention } from './desk-protocol';
import { electronBindingPath } from './electron-native.mjs';
import { costAlertNotice } from './cost-alert-text';
import { badgeCount, notificationsEnabled, overdueNotice, platformShows, queueMenuItem, trayTitle, trayToolTip } from './review-attention-text';
import { loadSecretsKey } from './secrets-key';

const STOP_TIMEOUT_MS = 10_000;
// 16x16 indigo dot with a white desk, embedded so the app ships no binary files.
const TRAY_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAS0lEQVR42mNgoDbwd3s619/t6X8ceC4hzU/waIbhJ5Roxm4IAWcT9g4ZmsGYNgYQArQ3AGYIMWJUNWAuGQbMpV5CokpSpkpmIgcAADWlxrbIWLzGAAAAAElFTkSuQmCC';

let host: DeskHost | null = null;
let connection: DeskConnection | null = null;
let win: BrowserWindow | null = null;
let tray: Tray | null = null;
let quitting = false;
let loopState: LoopState = 'on';
let attention: ReviewAttention | null = null;
// Shown notifications, kept referenced until closed: a garbage-collected Notification loses its click handler.
const notices = new Set<Notification>();

// node_modules/better-sqlite3 is built for Node; `npm run desktop` builds this copy for Electron once.
// The utility process runs Electron's Node, so it loads this copy too.
const sqliteBinding = electronBindingPath(app.getAppPath(), process.versions.electron, process.platform, process.arch);

function dataDir(): string {
  return process.env.DESK_DATA_DIR || app.getPath('userData');
}

function showWindow(): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/** Shows the desk window at one of its pages (a notification's or the tray's target). */
function showPage(pagePath: string): void {
  if (!win || !connection) return;
  void win.loadURL(`${connection.baseUrl}${pagePath}`);
  showWindow();
}

function openExternally(url: string): void {
  if (/^(https?|mailto):/i.test(url)) void shell.openExternal(url);
}

/** The URL and token go only to the desk window's own top frame showing the desk. */
function answerConnection(event: IpcMainInvokeEvent): DeskConnection {
  const frame = event.senderFrame;
  if (!connection || !win || event.sender !== win.webContents || !frame || frame.parent !== null || new URL(frame.url).origin !== new URL(connection.baseUrl).origin) {
    throw new Error('not the desk window');
  }
  return connection;
}

/**
 * The smallest window the layouts hold: every page is a usable single column down to 768 px wide
 * without scrolling sideways (e2e/every-page-filled.spec.ts checks 768 and 1024).
 */
const MIN_WINDOW = { width: 768, height: 560 };

function createWindow(url: string): BrowserWindow {
  const origin = new URL(url).origin;
  const w = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    show: false,
    title: 'Desk',
    webPreferences: {
      // The preload asks for the URL and token over IPC (answerConnection): never on a command line.
      preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  // The window only ever shows the desk; anything else opens in the OS browser.
  w.webContents.setWindowOpenHandler(({ url: target }) => {
    openExternally(target);
    return { action: 'deny' };
  });
  w.webContents.on('will-navigate', (event, target) => {
    if (new URL(target).origin === origin) return;
    event.preventDefault();
    openExternally(target);
  });
  w.on('close', (event) => {
    if (quitting) return;
    event.preventDefault(); // closing hides to the tray; Quit really quits
    w.hide();
  });
  w.once('ready-to-show', () => w.show());
  void w.loadURL(`${url}/`);
  return w;
}

function updateTray(): void {
  if (!tray || quitting) return;
  const label = `Loop: ${loopState}`;
  const queue = queueMenuItem(attention);
  tray.setToolTip(trayToolTip(loopState, attention));
  if (platformShows(process.platform).trayTitle) tray.setTitle(trayTitle(attention));
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Desk', click: showWindow },
      { label: queue.label, click: () => showPage(queue.path) },
      { label, enabled: false },
      { label: loopState === 'on' ? 'Pause loop' : 'Resume loop', click: () => host?.setLoop(loopState === 'on' ? 'paused' : 'on') },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
}

/** The review queue changed: tray and badge follow the overdue count; newly overdue outputs get a notification. */
function showAttention(next: ReviewAttention): void {
  if (quitting) return;
  attention = next;
  updateTray();
  if (platformShows(process.platform).badge) app.setBadgeCount(badgeCount(next));
  notify(overdueNotice(next));
}

/** Shows a notification (unless the OS has none or DESK_NOTIFICATIONS=off) that opens `path` when clicked. */
function notify(n: { title: string; body: string; path: string } | null): void {
  if (!n || quitting || !notificationsEnabled(process.env) || !Notification.isSupported()) return;
  const notice = new Notification({ title: n.title, body: n.body });
  notices.add(notice);
  notice.on('click', () => showPage(n.path));
  notice.on('close', () => notices.delete(notice));
  notice.show();
}

/** The desk process died under us: say where its log is and quit (never restart silently). */
function crashed(problem: { message: string; logFile: string | null }): void {
  if (quitting) return;
  quitting = true;
  host = null;
  dialog.showErrorBox('Desk stopped', `${problem.message}\n\nThe log is in ${problem.logFile ?? logFilePath(dataDir())}`);
  app.exit(1);
}

async function start(): Promise<void> {
  const child = utilityProcess.fork(fileURLToPath(new URL('./desk-process.js', import.meta.url)), [], { serviceName: 'Desk server', stdio: 'inherit' });
  host = new DeskHost(child, {
    onLoopState: (state) => {
      loopState = state;
      updateTray();
    },
    onReviewAttention: showAttention,
    onCostAlerts: (alerts) => notify(costAlertNotice(alerts)),
    onLoopError: (message) => dialog.showErrorBox('Desk', `Could not change the loop: ${message}`),
    onToken: (token) => {
      if (connection) connection = { ...connection, token };
    },
    onCrash: crashed,
  });
  const ready = await host.start({
    type: 'start',
    dataDir: dataDir(),
    uiDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    // Unset when missing: better-sqlite3 then fails with NODE_MODULE_VERSION and the dialog says what to run.
    sqliteNativeBinding: fs.existsSync(sqliteBinding) ? sqliteBinding : undefined,
    // The API key the user enters in Settings is stored encrypted with this key (see secrets-key.ts).
    secretsKey: loadSecretsKey(dataDir(), safeStorage),
  });
  connection = { baseUrl: ready.url, token: ready.token };
  ipcMain.handle(CONNECTION_CHANNEL, answerConnection);
  win = createWindow(ready.url);
  tray = new Tray(nativeImage.createFromDataURL(TRAY_ICON));
  tray.on('click', showWindow);
  loopState = ready.loopState;
  updateTray();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);

  app.on('before-quit', (event) => {
    quitting = true;
    if (!host) return;
    // Stop the desk once (scheduler, in-flight requests, database), then really exit.
    event.preventDefault();
    const running = host;
    host = null;
    void running
      .stop(STOP_TIMEOUT_MS)
      .catch((err: unknown) => console.error('Desk did not stop cleanly:', err))
      .finally(() => app.exit(0));
  });

  app.whenReady().then(start).catch((err: unknown) => {
    let message = err instanceof Error ? err.message : String(err);
    if (message.includes('NODE_MODULE_VERSION')) {
      message += fs.existsSync(sqliteBinding)
        ? `\n\n${sqliteBinding} is not built for this Electron: delete it and run \`npm run desktop\`, which builds it again.`
        : `\n\nThe desktop needs better-sqlite3 built for Electron at ${sqliteBinding}: run \`npm run desktop\`, which builds it once (see README).`;
    }
    console.error(`Desk could not start: ${message}`);
    dialog.showErrorBox('Desk could not start', `${message}\n\nThe log is in ${logFilePath(dataDir())}`);
    quitting = true;
    const running = host;
    host = null;
    void (running ? running.stop(STOP_TIMEOUT_MS).catch(() => undefined) : Promise.resolve()).finally(() => app.exit(1));
  });
}
