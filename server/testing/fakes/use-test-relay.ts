import { afterEach, beforeEach } from 'vitest';
import { startTestDesk, type TestDesk, type TestDeskOptions } from '../desk';
import { startTestRelay, type TestRelay } from './relay-server';

// Apart from relay-server.ts: the browser tests import the fake relay, and must not load the desk's modules with it.
/**
 * Per test of a relay file: a fresh fake relay before it (`relay`), and the desk it starts through
 * `startDesk` (the last one) stopped after it, then the relay closed.
 */
export function useTestRelay(): { readonly relay: TestRelay; startDesk(options?: TestDeskOptions): Promise<TestDesk> } {
  let relay: TestRelay | undefined;
  let desk: TestDesk | null = null;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(async () => {
    await desk?.stop();
    desk = null;
    await relay?.close();
  });
  return {
    get relay() {
      if (!relay) throw new Error('useTestRelay(): the relay starts before each test; read it inside a test');
      return relay;
    },
    async startDesk(options) {
      desk = await startTestDesk(options);
      return desk;
    },
  };
}
