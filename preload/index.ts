/**
 * Hands the renderer its base URL and bearer token, fetched from main over IPC (main answers the
 * desk window only); never through the command line, which any local user can read with `ps`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { CONNECTION_CHANNEL, type DeskConnection } from '../main/desk-protocol';

contextBridge.exposeInMainWorld('deskShell', {
  connection: (): Promise<DeskConnection> => ipcRenderer.invoke(CONNECTION_CHANNEL),
});
