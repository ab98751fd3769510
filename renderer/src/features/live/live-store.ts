import { create } from 'zustand';
import type { StreamStatus } from './event-stream';

/**
 * Whether the desk's event stream is open. While it is, panels hear every change as it happens and
 * do not poll; polling is the fallback for when the stream is down (the desk restarting, a proxy
 * that buffers). `pollWhenStreamDown` is the refetchInterval that says so.
 */
interface LiveState {
  status: StreamStatus;
  setStatus(status: StreamStatus): void;
}

export const useLiveStream = create<LiveState>()((set) => ({
  status: 'connecting',
  setStatus: (status) => set({ status }),
}));

export const isStreamOpen = (): boolean => useLiveStream.getState().status === 'open';

/** A query's refetchInterval: `ms` while the stream is down, none while it is open (events refresh it). */
export const pollWhenStreamDown =
  (ms: number) =>
  (): number | false =>
    isStreamOpen() ? false : ms;
