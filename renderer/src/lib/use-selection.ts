import { useState } from 'react';

/**
 * Which items of a list are picked, by id. The pick survives refetches; `selected` lists only the picked
 * ids still in `items` (in their order), so deleted items drop out by themselves.
 */
export function useSelection(items: readonly { id: string }[]) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const selected = items.filter((i) => picked.has(i.id)).map((i) => i.id);
  const select = (id: string, on: boolean) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const selectAll = (on: boolean) => setPicked(on ? new Set(items.map((i) => i.id)) : new Set());
  return { isPicked: (id: string) => picked.has(id), selected, select, selectAll, clear: () => selectAll(false) };
}
