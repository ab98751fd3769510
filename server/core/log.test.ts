import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs';
import { createLogger, formatForTerminal, logFilePath, REDACTED, silentLogger } from './log';

const TOKEN = 'tok_0123456789abcdefghijklmnop';
const tempDir = tempDirs('desk-log-');
function lines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('createLogger', () => {
  it('writes JSON lines to <dataDir>/logs/desk.log', async () => {
    const dataDir = tempDir();
    const log = createLogger({ dataDir });
    log.info({ port: 4477 }, 'desk started');
    log.child({ component: 'scheduler' }).error('job feed-poll failed: feed unreachable');
    await log.close();
    expect(log.file).toBe(path.join(dataDir, 'logs', 'desk.log'));
    expect(logFilePath(dataDir)).toBe(log.file);
    const entries = lines(log.file!);
    expect(entries).toEqual([
      expect.objectContaining({ level: 'info', msg: 'desk started', port: 4477, time: expect.any(String) }),
      expect.objectContaining({ level: 'error', component: 'scheduler', msg: 'job feed-poll failed: feed unreachable' }),
    ]);
  });

  it('redacts secrets as known fields, and scrubs their values from messages, fields and stacks', async () => {
    const dataDir = tempDir();
    const log = createLogger({ dataDir, secrets: ['sk-live-abcdefghijkl', undefined, 'short'] });
    log.addSecret(TOKEN); // the workspace token, known once the workspace is open
    log.info({ token: 'anything', req: { headers: { authorization: `Bearer ${TOKEN}` } }, config: { openai: { apiKey: 'x' } } }, 'fields');
    log.warn(`POST /api/webhooks/signals/${TOKEN} failed with key sk-live-abcdefghijkl`);
    log.error({ err: new Error(`bad "${TOKEN}"`), url: `http://127.0.0.1/#token=${encodeURIComponent(TOKEN)}` }, 'boom');
    log.info('a short value such as "short" is left alone');
    await log.close();
    const text = fs.readFileSync(log.file!, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('sk-live-abcdefghijkl');
    const [fields, message, error, short] = lines(log.file!);
    expect(fields).toMatchObject({ token: REDACTED, req: { headers: { authorization: REDACTED } }, config: { openai: { apiKey: REDACTED } } });
    expect(message.msg).toBe(`POST /api/webhooks/signals/${REDACTED} failed with key ${REDACTED}`);
    expect(error).toMatchObject({ err: { message: `bad "${REDACTED}"` }, url: `http://127.0.0.1/#token=${REDACTED}` });
    expect(short.msg).toContain('"short"');
  });

  it('rotates by size and keeps a bounded number of files', async () => {
    const dataDir = tempDir();
    const log = createLogger({ dataDir, rotation: { size: '1K', rotate: 2 } });
    for (let i = 0; i < 100; i += 1) log.info({ i, padding: 'x'.repeat(50) }, 'filler');
    await log.close();
    const files = fs.readdirSync(path.join(dataDir, 'logs')).sort();
    expect(files).toEqual(['desk.log', 'desk.log.1', 'desk.log.2']);
    for (const file of files) {
      const entries = lines(path.join(dataDir, 'logs', file));
      expect(entries.length).toBeGreaterThan(0);
      expect(fs.statSync(path.join(dataDir, 'logs', file)).size).toBeLessThan(2048);
    }
    // The newest lines are in desk.log.
    expect(lines(path.join(dataDir, 'logs', 'desk.log')).at(-1)).toMatchObject({ i: 99 });
  });

  it('the silent logger writes nothing and closes at once', async () => {
    const log = silentLogger();
    log.error('nobody hears this');
    expect(log.file).toBeNull();
    await log.close();
  });
});

describe('formatForTerminal', () => {
  it('prints a short readable line', () => {
    const line = formatForTerminal(JSON.stringify({ level: 'info', time: '2026-03-10T12:00:00.000Z', pid: 1, msg: 'desk started', port: 4477, dataDir: '/my data' }));
    expect(line).toMatch(/^\d\d:\d\d:\d\d INFO {2}desk started port=4477 dataDir="\/my data"\n$/);
  });
});
