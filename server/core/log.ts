/**
 * The desk's log: JSON lines in `<dataDir>/logs/desk.log`, rotated by size and daily, the last few
 * files kept, so a packaged app (no terminal) still leaves a record to read after a failure.
 *
 * pino writes synchronously into our own destination (no pino transports: they run in worker
 * threads loaded by file name, which do not survive bundling); rotating-file-stream owns the file.
 * Secrets never reach the file: pino's `redact` blanks known fields, and every finished line is
 * scrubbed of the secret values themselves (workspace token, API key), wherever they appear.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { createStream, type Options as RotationOptions } from 'rotating-file-stream';

export const LOG_DIR = 'logs';
export const LOG_FILE = 'desk.log';
export const REDACTED = '[redacted]';

/** Where the log of a data folder is (also shown by the desktop shell when the server dies). */
export function logFilePath(dataDir: string): string {
  return path.join(dataDir, LOG_DIR, LOG_FILE);
}

/** Field names that hold secrets, at the top level or one or two levels down (e.g. `req.headers.authorization`). */
const SECRET_FIELDS = ['token', 'ingestToken', 'authorization', 'apiKey', 'api_key', 'secret', 'password', 'cookie'];
const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);

/** Shorter values are not scrubbed from text: a dummy key such as "none" would blank ordinary words. */
const MIN_SECRET_LENGTH = 8;

export interface Logger extends pino.Logger {
  /** Also scrubs this value from every line from now on (e.g. the workspace token once it is known). */
  addSecret(value: string | null | undefined): void;
  /** Flushes and closes the log file; the logger must not be used afterwards. */
  close(): Promise<void>;
  /** The file written to, or null (silent, or stdout only). */
  readonly file: string | null;
}

export interface LoggerOptions {
  /** Data folder: the log goes to `<dataDir>/logs/desk.log`. Omit for no file. */
  dataDir?: string;
  /** Values scrubbed from every line (token, API keys); empty and short values are ignored. */
  secrets?: (string | null | undefined)[];
  /** Also print short human-readable lines to stdout (the CLI). */
  toStdout?: boolean;
  level?: pino.LevelWithSilent;
  /** Rotation settings; the defaults keep at most 6 files of at most 10 MB (tests use a tiny size). */
  rotation?: Pick<RotationOptions, 'size' | 'interval' | 'rotate'>;
}

export const DEFAULT_ROTATION = { size: '10M', interval: '1d', rotate: 5 } as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces each secret (raw, and as it reads inside a JSON string) with [redacted]. */
export class SecretScrubber {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | null = null;

  add(value: string | null | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    const forms = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)];
    const before = this.secrets.size;
    for (const form of forms) this.secrets.add(form);
    if (this.secrets.size === before) return;
    // Longest first, so a secret that contains another is replaced whole.
    const alternatives = [...this.secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = new RegExp(alternatives.join('|'), 'g');
  }

  scrub(text: string): string {
    return this.pattern ? text.replace(this.pattern, REDACTED) : text;
  }
}

const LEVEL_NAMES: Record<string, string> = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO ', warn: 'WARN ', error: 'ERROR', fatal: 'FATAL' };
const LINE_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/** `12:03:04 INFO  desk started port=4477 dataDir="/x"`: one JSON log line as a terminal line. */
export function formatForTerminal(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const time = typeof entry.time === 'string' ? new Date(entry.time) : new Date();
  const clock = `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}:${String(time.getSeconds()).padStart(2, '0')}`;
  const fields = Object.entries(entry)
    .filter(([key]) => !LINE_FIELDS.has(key))
    .map(([key, value]) => {
      if (key === 'err' && value && typeof value === 'object' && 'stack' in value) return `\n${String((value as { stack: unknown }).stack)}`;
      return ` ${key}=${typeof value === 'string' && !/\s|"/.test(value) ? value : JSON.stringify(value)}`;
    })
    .join('');
  return `${clock} ${LEVEL_NAMES[String(entry.level)] ?? String(entry.level)} ${String(entry.msg ?? '')}${fields}\n`;
}

/**
 * Keeps the process running when nobody reads its output any more: a terminal closed under it, or
 * a pipe whose reader left (`npm start | head`). Writing there then fails with EPIPE, emitted as an
 * error on the stream; without a listener it is thrown as uncaught, and the fatal log of it wrote to
 * stdout again: the desk spun at full CPU, its memory growing, and never answered SIGTERM. With this,
 * the output that is gone is left alone and the desk goes on (its log file keeps every line).
 */
export function tolerateClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}

/** Whether `stream` can still be written (false once a write failed and destroyed it). */
const open = (stream: NodeJS.WriteStream) => stream.writable && !stream.destroyed;

/** A logger writing JSON lines to the data folder's rotating log (and, for the CLI, readable lines to stdout). */
export function createLogger(options: LoggerOptions = {}): Logger {
  const scrubber = new SecretScrubber();
  for (const secret of options.secrets ?? []) scrubber.add(secret);
  const file = options.dataDir ? logFilePath(options.dataDir) : null;
  if (file) {
    // rotating-file-stream opens the file asynchronously on its first write: create it now, private,
    // so the log exists (and is 0600) as soon as the desk is up, not some ticks later.
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(file, 'a', 0o600));
  }
  const rotating = file
    ? // mode: the log is private like the rest of the data folder (server/core/private-data.ts).
      createStream(LOG_FILE, { path: path.dirname(file), mode: 0o600, ...DEFAULT_ROTATION, ...options.rotation })
    : null;
  let fileBroken = false;
  // Once rotating-file-stream reports an error its stream is closed: say so once on stderr and keep running.
  rotating?.on('error', (err: Error) => {
    if (!fileBroken && open(process.stderr)) process.stderr.write(`desk: cannot write the log file ${file}: ${err.message}\n`);
    fileBroken = true;
  });
  rotating?.on('warning', (err: Error) => open(process.stderr) && process.stderr.write(`desk: log rotation: ${err.message}\n`));

  const destination = {
    write(line: string): void {
      const clean = scrubber.scrub(line);
      if (rotating && !fileBroken && rotating.writable) rotating.write(clean);
      if (options.toStdout && open(process.stdout)) process.stdout.write(formatForTerminal(clean));
    },
  };

  const base = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
    },
    destination,
  );

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      if (!rotating || fileBroken || rotating.writableFinished) return resolve();
      rotating.once('error', () => resolve());
      // 'close' follows 'finish' once the file descriptor is released (and the rotation timer cleared).
      rotating.once('close', () => resolve());
      rotating.end();
    });
    return closing;
  };

  return Object.assign(base, {
    addSecret: (value: string | null | undefined) => scrubber.add(value),
    close,
    file,
  }) as Logger;
}

/** A logger that writes nothing: for tests that do not look at logs. */
export function silentLogger(): Logger {
  return createLogger({ level: 'silent' });
}
