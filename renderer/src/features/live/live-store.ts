import { create } from 'zustand';
import { nowMs } from '../../lib/clock';
import type { StreamStatus } from './event-stream';

/**
 * Whether the desk's event stream is open. While it is, panels hear every change as it happens and
 * do not poll; polling is the fallback for when the stream is down (the desk restarting, a proxy
 * that buffers). `pollWhenStreamDown` is the refetchInterval that says so.
 */
interface LiveState {
  status: StreamStatus;
  /** When the last event arrived (the renderer clock's ms), or null: what follows an event (a webhook delivery) is looked for soon after. */
  lastEventAt: number | null;
  setStatus(status: StreamStatus): void;
  heard(at: number): void;
}

export const useLiveStream = create<LiveState>()((set) => ({
  status: 'connecting',
  lastEventAt: null,
  setStatus: (status) => set({ status }),
  heard: (at) => set({ lastEventAt: at }),
}));

export const isStreamOpen = (): boolean => useLiveStream.getState().status === 'open';

/** A query's refetchInterval: `ms` while the stream is down, none while it is open (events refresh it). */
export const pollWhenStreamDown =
  (ms: number) =>
  (): number | false =>
    isStreamOpen() ? false : ms;

/** Milliseconds since the last event arrived (Infinity before the first). */
export const sinceLastEvent = (): number => {
  const at = useLiveStream.getState().lastEventAt;
  return at === null ? Infinity : nowMs() - at;
};
