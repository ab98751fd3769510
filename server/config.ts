import os from 'node:os';
import path from 'node:path';
import { IANAZone } from 'luxon';
import { PLANS, type Plan, type EngineKind } from './core/vocabulary';
export { PLANS, type Plan, type EngineKind };

/** The database's file name inside the data folder. */
export const DATABASE_FILE = 'desk.sqlite';

export interface DeskConfig {
  dataDir: string;
  port: number;
  host: string;
  /** Only used when the workspace is created. */
  seed: { ingestToken?: string; plan: Plan; timezone: string };
  /**
   * Fresh workspace: DESK_ENGINE, DESK_MODEL and DESK_OPENAI_BASE_URL seed its engine settings
   * (Settings → AI engine changes them later). DESK_OPENAI_API_KEY overrides the stored key at run
   * time and is never written.
   */
  engine: EngineKind;
  openai: { baseUrl?: string; apiKey?: string; model?: string };
  /**
   * 32 bytes that encrypt the secrets file (the engine's API key). Not read from the environment:
   * the desktop shell passes the key it keeps with Electron's safeStorage; headless, the file is plain and private.
   */
  secretsKey?: Buffer;
  relayUrl?: string;
  smtpUrl?: string;
  /** Built renderer to serve at `/`; absent in API-only runs. */
  uiDir?: string;
  /** Authenticated inbound webhook requests per minute per token (DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE, default 6000). */
  webhookRateLimitPerMinute?: number;
  /** Failed inbound webhook token attempts per minute per client address before 429 (default 20; not read from the environment). */
  webhookFailedAuthPerMinute?: number;
  /** Heartbeat of GET /events/stream in ms (default 15 s; not read from the environment: tests shorten it). */
  eventStreamHeartbeatMs?: number;
  /**
   * better_sqlite3.node to load instead of node_modules' own (built for Node). Not read from the
   * environment: only the Electron shell sets it, to its copy built for Electron's ABI.
   */
  sqliteNativeBinding?: string;
  /**
   * SQLite's `synchronous` on the desk's connections (its own and the cycle worker's). Not read from
   * the environment: only test desks (server/testing/desk.ts) set `OFF`; every other desk syncs at FULL.
   */
  sqliteSynchronous?: 'FULL' | 'OFF';
  /** Free space Desk needs on its disk to resume after it filled (default 64 MiB, server/core/disk-space.ts). Not read from the environment: tests on a small disk set it. */
  minFreeDiskBytes?: number;
}

function defaultDataDir(): string {
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? os.homedir(), 'desk');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'desk');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'), 'desk');
}

export function machineTimezone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return tz && IANAZone.isValidZone(tz) ? tz : 'UTC';
}

/** DESK_SMTP_URL: smtp:// (STARTTLS when offered) or smtps:// (TLS), a host, optional user:password and port (nodemailer's URL form). */
function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Reads the environment once and rejects bad values with a message that names the variable. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): DeskConfig {
  const problems: string[] = [];
  const port = env.DESK_PORT === undefined || env.DESK_PORT === '' ? 4477 : Number(env.DESK_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('DESK_PORT must be an integer 0-65535');
  const plan = (env.DESK_PLAN || 'free') as Plan;
  if (!PLANS.includes(plan)) problems.push('DESK_PLAN must be free, pro or team');
  const timezone = env.DESK_TIMEZONE || machineTimezone();
  if (!IANAZone.isValidZone(timezone)) problems.push(`DESK_TIMEZONE "${timezone}" is not an IANA timezone`);
  const engine = (env.DESK_ENGINE || 'local') as EngineKind;
  if (!['local', 'openai'].includes(engine)) problems.push('DESK_ENGINE must be local or openai');
  const openaiBaseUrl = env.DESK_OPENAI_BASE_URL || undefined;
  if (openaiBaseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(openaiBaseUrl)) problems.push('DESK_OPENAI_BASE_URL must be an http(s) URL');
  const model = env.DESK_MODEL?.trim() || undefined;
  if (model !== undefined && model.length > 200) problems.push('DESK_MODEL must be at most 200 characters');
  if (engine === 'openai' && model === undefined) problems.push('DESK_MODEL is required when DESK_ENGINE is openai (e.g. gpt-4o-mini, or llama3.1 for Ollama)');
  const ingestToken = env.DESK_INGEST_TOKEN || undefined;
  if (ingestToken !== undefined && !/^[A-Za-z0-9_-]{16,256}$/.test(ingestToken)) {
    problems.push('DESK_INGEST_TOKEN must be 16-256 characters of A-Z a-z 0-9 _ -');
  }
  const relayUrl = env.DESK_RELAY_URL || undefined;
  if (relayUrl !== undefined && !/^https?:\/\//.test(relayUrl)) problems.push('DESK_RELAY_URL must be an http(s) URL');
  const smtpUrl = env.DESK_SMTP_URL || undefined;
  if (smtpUrl !== undefined && !isSmtpUrl(smtpUrl)) problems.push('DESK_SMTP_URL must be an smtp:// or smtps:// URL with a host (e.g. smtps://user:password@smtp.example.com:465)');
  const webhookLimit = env.DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE || undefined;
  const webhookRateLimitPerMinute = webhookLimit === undefined ? undefined : Number(webhookLimit);
  if (webhookRateLimitPerMinute !== undefined && !(Number.isInteger(webhookRateLimitPerMinute) && webhookRateLimitPerMinute >= 1 && webhookRateLimitPerMinute <= 1_000_000)) {
    problems.push('DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE must be an integer 1-1000000');
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return {
    dataDir: env.DESK_DATA_DIR || defaultDataDir(),
    port,
    host: env.DESK_HOST || '127.0.0.1',
    seed: { ingestToken, plan, timezone },
    engine,
    // DESK_ENGINE=openai without a base URL means OpenAI itself.
    openai: { baseUrl: openaiBaseUrl ?? (engine === 'openai' ? 'https://api.openai.com/v1' : undefined), apiKey: env.DESK_OPENAI_API_KEY || undefined, model },
    relayUrl,
    smtpUrl,
    ...(webhookRateLimitPerMinute === undefined ? {} : { webhookRateLimitPerMinute }),
  };
}
