/**
 * Real damage to a real SQLite file, for the rescue tests (server/rescue-desk.test.ts, the browser
 * spec): the kinds a disk, a crash of another program or a bad copy leave behind.
 */
import fs from 'node:fs';

/** The file's page size, from its header (bytes 16-17; 1 means 65536). */
export function pageSizeOf(file: string): number {
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  const size = header.readUInt16BE(16);
  return size === 1 ? 65536 : size;
}

/**
 * Overwrites whole pages (1-based page numbers, never page 1: the header stays readable, as when a
 * disk loses sectors) with bytes of a fixed pseudo-random sequence.
 */
export function overwritePages(file: string, pages: readonly number[]): void {
  const size = pageSizeOf(file);
  const total = Math.floor(fs.statSync(file).size / size);
  let seed = 0x2545f491;
  const fd = fs.openSync(file, 'r+');
  try {
    for (const page of pages) {
      if (page < 2 || page > total) throw new Error(`page ${page} is not a page of ${file} other than the first (it has ${total})`);
      const garbage = Buffer.alloc(size);
      for (let i = 0; i < size; i++) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        garbage[i] = seed & 0xff;
      }
      fs.writeSync(fd, garbage, 0, size, (page - 1) * size);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Cuts the file to `fraction` of its length, at a page boundary (a copy that stopped half-way). */
export function truncateFile(file: string, fraction: number): void {
  const size = pageSizeOf(file);
  const pages = Math.floor(fs.statSync(file).size / size);
  fs.truncateSync(file, Math.max(2, Math.floor(pages * fraction)) * size);
}

/** Replaces the file with text: something else saved under the database's name. */
export function replaceWithText(file: string): void {
  fs.writeFileSync(file, 'These are my notes, not a database.\n'.repeat(500));
}

/** How many pages the file has. */
export const pageCountOf = (file: string): number => Math.floor(fs.statSync(file).size / pageSizeOf(file));
