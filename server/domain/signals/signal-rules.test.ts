import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { checkHttpUrl } from '../../core/input';
import { checkBulkIds, checkExternalId, checkSignalInput, readInboundDelivery } from './signal-rules';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from './signal-store';

const fieldOf = invalidFieldOf;

const base = { kind: 'news', priority: 'normal', title: 'A title', detail: '' };

describe('signal rules', () => {
  it('accepts every kind and priority and rejects others, naming the field with its prefix', () => {
    for (const kind of SIGNAL_KINDS) expect(checkSignalInput({ ...base, kind }).kind).toBe(kind);
    for (const priority of SIGNAL_PRIORITIES) expect(checkSignalInput({ ...base, priority }).priority).toBe(priority);
    expect(fieldOf(() => checkSignalInput({ ...base, kind: 'gossip' }))).toBe('kind');
    expect(fieldOf(() => checkSignalInput({ ...base, priority: 'critical' }, 'signals[2].'))).toBe('signals[2].priority');
  });

  it('title is 1-200 characters after trimming', () => {
    expect(checkSignalInput({ ...base, title: '  padded  ' }).title).toBe('padded');
    expect(checkSignalInput({ ...base, title: 'x'.repeat(200) }).title).toHaveLength(200);
    expect(checkSignalInput({ ...base, title: 'x' }).title).toBe('x');
    expect(fieldOf(() => checkSignalInput({ ...base, title: 'x'.repeat(201) }))).toBe('title');
    expect(fieldOf(() => checkSignalInput({ ...base, title: '' }))).toBe('title');
    expect(fieldOf(() => checkSignalInput({ ...base, title: '   ' }))).toBe('title');
  });

  it('detail is at most 5000 characters', () => {
    expect(checkSignalInput({ ...base, detail: 'd'.repeat(5000) }).detail).toHaveLength(5000);
    expect(fieldOf(() => checkSignalInput({ ...base, detail: 'd'.repeat(5001) }))).toBe('detail');
  });

  it('sourceUrl is an optional http(s) URL', () => {
    expect(checkSignalInput({ ...base }).sourceUrl).toBeNull();
    expect(checkSignalInput({ ...base, sourceUrl: 'https://example.com/a' }).sourceUrl).toBe('https://example.com/a');
    expect(checkSignalInput({ ...base, sourceUrl: 'http://example.com' }).sourceUrl).toBe('http://example.com');
    expect(fieldOf(() => checkHttpUrl('sourceUrl', 'ftp://example.com'))).toBe('sourceUrl');
    expect(fieldOf(() => checkHttpUrl('sourceUrl', 'javascript:alert(1)'))).toBe('sourceUrl');
    expect(fieldOf(() => checkHttpUrl('sourceUrl', 'https://'))).toBe('sourceUrl');
    expect(fieldOf(() => checkHttpUrl('sourceUrl', `https://example.com/${'a'.repeat(2000)}`))).toBe('sourceUrl');
  });

  it('bulk ids: 1-50, duplicates folded', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `sig_${i}`);
    expect(checkBulkIds(fifty)).toHaveLength(50);
    expect(checkBulkIds(['a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(fieldOf(() => checkBulkIds([...fifty, 'sig_50']))).toBe('signalIds');
    expect(fieldOf(() => checkBulkIds([]))).toBe('signalIds');
    expect(fieldOf(() => checkBulkIds(['ok', '']))).toBe('signalIds[1]');
    expect(fieldOf(() => checkBulkIds(['x'.repeat(101)]))).toBe('signalIds[0]');
  });

  it('a delivery keeps the header and body keys (kit rule: 1-200 characters, no control characters) and external ids are 1-200 characters', () => {
    expect(readInboundDelivery({ title: 'x', idempotencyKey: 'field' }, 'k'.repeat(200)).idempotencyKeys).toEqual(['k'.repeat(200), 'field']);
    expect(readInboundDelivery({ title: 'x', idempotencyKey: 'same' }, 'same').idempotencyKeys).toEqual(['same']);
    expect(fieldOf(() => readInboundDelivery({ title: 'x' }, 'k'.repeat(201)))).toBe('Idempotency-Key');
    expect(fieldOf(() => readInboundDelivery({ title: 'x' }, 'a\nb'))).toBe('Idempotency-Key');
    expect(fieldOf(() => readInboundDelivery({ title: 'x', idempotencyKey: '' }))).toBe('idempotencyKey');
    expect(checkExternalId('e', 'e'.repeat(200))).toHaveLength(200);
    expect(fieldOf(() => checkExternalId('e', 'e'.repeat(201)))).toBe('e');
  });
});
