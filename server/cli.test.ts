import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { logFilePath } from './core/log';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start (server/cli.ts)', () => {
  it('keeps serving when its output is closed (a pipe whose reader left), and stops cleanly on SIGTERM', { timeout: 60_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-cli-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts'], {
      cwd: root,
      env: { ...process.env, DESK_DATA_DIR: dataDir, DESK_PORT: '0', DESK_HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let output = '';
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk;
          const match = /^Open: (http:\/\/[^/#\s]+)/m.exec(output);
          if (match) resolve(match[1]);
        });
        void exited.then((code) => reject(new Error(`desk exited (${code}) before it was ready:\n${output}`)));
      });
      // The reader leaves, as `| head` does: the desk's next line to stdout fails with EPIPE.
      child.stdout.destroy();
      child.stderr.destroy();
      for (let i = 0; i < 3; i++) expect((await fetch(`${baseUrl}/api/v1/openapi.json`)).status).toBe(200);

      // SIGTERM prints a line too; the desk still stops as it should, and its log file has every line.
      child.kill('SIGTERM');
      const timeout = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000).unref());
      expect(await Promise.race([exited, timeout])).toBe(0);
      const log = fs.readFileSync(logFilePath(dataDir), 'utf8');
      expect(log).toContain('"msg":"desk stopped"');
      expect(log).not.toContain('uncaught exception');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
