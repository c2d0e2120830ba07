// One item for its page: loading, the item, or why not (404 for a missing or someone else's id).
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '@kaboodle/kit';
import { fetchItem } from '../inventory-api.ts';
import type { InventoryDetail } from '../inventory-types.ts';

export type ItemState =
  | { kind: 'loading' }
  | { kind: 'ready'; item: InventoryDetail }
  | { kind: 'missing' }
  | { kind: 'failed'; message: string };

export function useItem(id: string) {
  const [state, setState] = useState<ItemState>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchItem(id, controller.signal).then(
      (item) => setState({ kind: 'ready', item }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 404) setState({ kind: 'missing' });
        else setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => controller.abort();
  }, [id, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const set = useCallback((item: InventoryDetail) => setState({ kind: 'ready', item }), []);
  return { state, reload, set };
}
