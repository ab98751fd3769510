import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOLD_SECTION_MS, holdSection } from './SectionNav';

/** A ResizeObserver the test fires by hand; disconnected observers stay silent. */
class FakeResizeObserver {
  static live = new Set<FakeResizeObserver>();
  constructor(private readonly callback: () => void) {}
  observe() {
    FakeResizeObserver.live.add(this);
  }
  disconnect() {
    FakeResizeObserver.live.delete(this);
  }
  static resize() {
    for (const o of FakeResizeObserver.live) o.callback();
  }
}

function page() {
  const stack = document.createElement('div');
  const section = document.createElement('section');
  section.id = 'layout';
  const scrolls = vi.fn();
  section.scrollIntoView = scrolls;
  stack.append(section);
  document.body.append(stack);
  return { scrolls, remove: () => stack.remove() };
}

describe('holdSection', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    FakeResizeObserver.live.clear();
  });

  it('keeps the section at the top while the page above it grows, until the user clicks', () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const { scrolls, remove } = page();
    holdSection('layout');
    expect(scrolls).toHaveBeenCalledTimes(1);
    FakeResizeObserver.resize();
    expect(scrolls).toHaveBeenCalledTimes(2);
    window.dispatchEvent(new Event('pointerdown'));
    FakeResizeObserver.resize();
    expect(scrolls).toHaveBeenCalledTimes(2);
    remove();
  });

  it('lets go after HOLD_SECTION_MS, and when the page leaves', () => {
    vi.useFakeTimers();
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const { scrolls, remove } = page();
    holdSection('layout');
    vi.advanceTimersByTime(HOLD_SECTION_MS);
    FakeResizeObserver.resize();
    expect(scrolls).toHaveBeenCalledTimes(1);
    const release = holdSection('layout');
    release();
    FakeResizeObserver.resize();
    expect(scrolls).toHaveBeenCalledTimes(2);
    remove();
  });
});
