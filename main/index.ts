/**
 * Electron main process: starts the desk in-process and shows its UI in a window with a tray.
 * Everything else (API, scheduler, UI) lives in server/ and renderer/; keep this file thin.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, Menu, nativeImage, shell, Tray } from 'electron';
import { configFromEnv } from '../server/config';
import { startDesk, type RunningDesk } from '../server/start';
import { electronBindingPath } from './electron-native.mjs';

const TRAY_REFRESH_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
// 16x16 indigo dot with a white desk, embedded so the app ships no binary files.
const TRAY_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAS0lEQVR42mNgoDbwd3s619/t6X8ceC4hzU/waIbhJ5Roxm4IAWcT9g4ZmsGYNgYQArQ3AGYIMWJUNWAuGQbMpV5CokpSpkpmIgcAADWlxrbIWLzGAAAAAElFTkSuQmCC';

let desk: RunningDesk | null = null;
let win: BrowserWindow | null = null;
let tray: Tray | null = null;
let trayTimer: NodeJS.Timeout | undefined;
let quitting = false;

// node_modules/better-sqlite3 is built for Node; `npm run desktop` builds this copy for Electron once.
const sqliteBinding = electronBindingPath(app.getAppPath(), process.versions.electron, process.platform, process.arch);

function showWindow(): void {
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

function openExternally(url: string): void {
  if (/^(https?|mailto):/i.test(url)) void shell.openExternal(url);
}

function createWindow(running: RunningDesk): BrowserWindow {
  const origin = new URL(running.url).origin;
  const w = new BrowserWindow({
    width: 1280,
    height: 860,
    show: false,
    title: 'Desk',
    webPreferences: {
      preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      additionalArguments: [`--desk-url=${running.url}`, `--desk-token=${running.token}`],
    },
  });
  // The window only ever shows the desk; anything else opens in the OS browser.
  w.webContents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  w.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin === origin) return;
    event.preventDefault();
    openExternally(url);
  });
  w.on('close', (event) => {
    if (quitting) return;
    event.preventDefault(); // closing hides to the tray; Quit really quits
    w.hide();
  });
  w.once('ready-to-show', () => w.show());
  void w.loadURL(`${running.url}/`);
  return w;
}

async function refreshTray(): Promise<void> {
  if (!desk || !tray || quitting) return;
  const { loopState } = await desk.services.workspace.profile();
  const label = `Loop: ${loopState}`;
  tray.setToolTip(`Desk — ${label}`);
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Open Desk', click: showWindow },
      { label, enabled: false },
      { label: loopState === 'on' ? 'Pause loop' : 'Resume loop', click: () => setLoop(loopState === 'on' ? 'paused' : 'on') },
      { type: 'separator' },
      { label: 'Quit', click: () => app.quit() },
    ]),
  );
}

function setLoop(state: 'on' | 'paused'): void {
  desk?.services.workspace
    .setLoopState(state)
    .then(refreshTray)
    .catch((err: unknown) => dialog.showErrorBox('Desk', `Could not change the loop: ${err instanceof Error ? err.message : String(err)}`));
}

async function start(): Promise<void> {
  // The desktop picks a free port unless told otherwise, so it never clashes with a headless `npm start`.
  const config = {
    ...configFromEnv({ ...process.env, DESK_PORT: process.env.DESK_PORT || '0' }),
    dataDir: process.env.DESK_DATA_DIR || app.getPath('userData'),
    uiDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    // Unset when missing: better-sqlite3 then fails with NODE_MODULE_VERSION and the dialog says what to run.
    sqliteNativeBinding: fs.existsSync(sqliteBinding) ? sqliteBinding : undefined,
  };
  desk = await startDesk(config);
  win = createWindow(desk);
  tray = new Tray(nativeImage.createFromDataURL(TRAY_ICON));
  tray.on('click', showWindow);
  await refreshTray();
  trayTimer = setInterval(() => void refreshTray().catch(() => undefined), TRAY_REFRESH_MS);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);

  app.on('before-quit', (event) => {
    quitting = true;
    clearInterval(trayTimer);
    if (!desk) return;
    // Stop the desk once (scheduler, in-flight requests, database), then really exit.
    event.preventDefault();
    const running = desk;
    desk = null;
    const timeout = new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS));
    void Promise.race([running.stop(), timeout])
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
    dialog.showErrorBox('Desk could not start', message);
    quitting = true;
    const running = desk;
    desk = null;
    void (running ? running.stop() : Promise.resolve()).finally(() => app.exit(1));
  });
}
