import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';

/**
 * The rescue API is answered by a desk in rescue mode (server/rescue-desk.ts; a healthy desk answers
 * 409). Plain fetch with the same base URL and token: the typed client's handling of a rescue-mode
 * answer is what sends the UI here.
 */
export type CheckedBackup = Schema<'CheckedBackup'>;
export type RescueState = Schema<'RescueState'>;
export type RestoreAnswer = Schema<'RestoreAnswer'>;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const { baseUrl, token } = useAuth.getState();
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new Error(data.message ?? `Desk answered with HTTP ${res.status}`);
  return data;
}

export const fetchRescueState = () => call<RescueState>('GET', '/api/v1/rescue');
export const restoreBackup = (backup: string) => call<RestoreAnswer>('POST', '/api/v1/rescue/restore', { backup });

/** Waits until the full desk answers with `token` (it starts on the same port after a restore). */
export async function waitForDesk(token: string, tries = 120): Promise<boolean> {
  const { baseUrl } = useAuth.getState();
  for (let i = 0; i < tries; i++) {
    try {
      const res = await fetch(`${baseUrl}/api/v1/workspace`, { headers: { Authorization: `Bearer ${token}` } });
      if (res.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
