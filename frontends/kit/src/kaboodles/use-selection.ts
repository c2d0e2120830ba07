// Multi-select of documents and items (vault table, inventory, search results): the picked refs in
// the order they were picked, for "Add to kaboodle".
import { useCallback, useMemo, useState } from 'react';
import type { MemberRef } from './kaboodles-api.ts';

const keyOf = (r: MemberRef) => `${r.type}:${r.id}`;

export interface Selection {
  refs: MemberRef[];
  count: number;
  has(ref: MemberRef): boolean;
  toggle(ref: MemberRef): void;
  /** Select (or unselect) every one of these, e.g. "select all shown". */
  setMany(refs: readonly MemberRef[], on: boolean): void;
  clear(): void;
}

export function useSelection(): Selection {
  const [picked, setPicked] = useState<Map<string, MemberRef>>(() => new Map());
  const toggle = useCallback((ref: MemberRef) => {
    setPicked((m) => {
      const next = new Map(m);
      if (next.has(keyOf(ref))) next.delete(keyOf(ref));
      else next.set(keyOf(ref), { type: ref.type, id: ref.id });
      return next;
    });
  }, []);
  const setMany = useCallback((refs: readonly MemberRef[], on: boolean) => {
    setPicked((m) => {
      const next = new Map(m);
      for (const r of refs) {
        if (on) next.set(keyOf(r), { type: r.type, id: r.id });
        else next.delete(keyOf(r));
      }
      return next;
    });
  }, []);
  const clear = useCallback(() => setPicked(new Map()), []);
  return useMemo(
    () => ({
      refs: [...picked.values()],
      count: picked.size,
      has: (ref: MemberRef) => picked.has(keyOf(ref)),
      toggle,
      setMany,
      clear,
    }),
    [picked, toggle, setMany, clear],
  );
}
