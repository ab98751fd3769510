import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../../db/transactions';
import { useTestDatabase } from '../../testing/database';
import type { TestDesk } from '../../testing/desk';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { queueItems } from './review-queue';

/** The review queue's kept projection only ever holds committed outputs. */
const t = useTestDatabase();
const desk = () => ({ services: { db: t.db }, clock: t.clock }) as unknown as Pick<TestDesk, 'services' | 'clock'>;
const readyIds = async () => (await queueItems(t.db, 'ready')).map((i) => i.id);

describe('review queue cache', () => {
  it('an output written by a transaction that rolls back is never served, though the transaction read the queue', async () => {
    expect(await readyIds()).toEqual([]);
    await expect(
      inTransaction(t.db, async () => {
        await insertArtifactRow(desk(), { id: 'art_gone' });
        expect(await readyIds()).toEqual(['art_gone']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await readyIds()).toEqual([]);
  });

  it('a committed output is served at once after its commit', async () => {
    expect(await readyIds()).toEqual([]);
    await inTransaction(t.db, () => insertArtifactRow(desk(), { id: 'art_kept' }));
    expect(await readyIds()).toEqual(['art_kept']);
  });
});
