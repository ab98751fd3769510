import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { jsonChanges } from './snapshot-diff';

/**
 * The wire contract, committed: openapi.snapshot.json is the document GET /api/v1/openapi.json
 * serves, pretty-printed in the order it is served. A change to a controller, a domain type or a
 * bound that reaches the document fails here until the snapshot is updated on purpose, so a
 * renamed field never changes the API unseen.
 */
const snapshotFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'openapi.snapshot.json');
const UPDATE = '`npm run openapi:snapshot` (UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run server/openapi/snapshot.test.ts)';

describe('the served OpenAPI document', () => {
  let desk: TestDesk;
  beforeAll(async () => {
    desk = await startTestDesk();
  });
  afterAll(async () => {
    await desk.stop();
  });

  it('is the committed snapshot, byte for byte', async () => {
    const res = await fetch(`${desk.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const served: unknown = JSON.parse(await res.text());
    const text = `${JSON.stringify(served, null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI_SNAPSHOT) {
      fs.writeFileSync(snapshotFile, text);
      return;
    }
    const committed = fs.existsSync(snapshotFile) ? fs.readFileSync(snapshotFile, 'utf8') : '';
    if (text === committed) return;
    const changes = committed ? jsonChanges(JSON.parse(committed), served) : ['no snapshot committed yet'];
    if (changes.length === 0) changes.push('same JSON, different text (whitespace or line endings)');
    expect.fail(
      `The served OpenAPI document differs from server/openapi/openapi.snapshot.json:\n  ${changes.join('\n  ')}\n` +
        `If the change is deliberate, run \`npm run gen\` then ${UPDATE}, and commit the snapshot with the change.`,
    );
  });
});
