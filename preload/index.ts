/** Hands the renderer its base URL and bearer token (passed by main/ as additionalArguments). Nothing else. */
import { contextBridge } from 'electron';

function arg(name: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length) ?? '';
}

contextBridge.exposeInMainWorld('desk', { baseUrl: arg('desk-url'), token: arg('desk-token') });
