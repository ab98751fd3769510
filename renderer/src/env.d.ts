/// <reference types="vite/client" />

/** What the Electron preload hands the renderer (preload/index.ts). Absent in a plain browser. */
interface DeskBridge {
  /** Where the desk API listens, e.g. `http://127.0.0.1:4477`. */
  baseUrl: string;
  /** The bearer token for /api/v1. */
  token: string;
}

interface Window {
  desk?: Partial<DeskBridge>;
  /** Electron's preload: asks main for the DeskBridge values over IPC (lib/desk-bridge.ts puts them in `desk`). */
  deskShell?: { connection(): Promise<DeskBridge> };
}
