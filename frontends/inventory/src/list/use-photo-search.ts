// Find by photo from the inventory screen: one search at a time, its results or its failure.
import { useCallback, useRef, useState } from 'react';
import { isApiError } from '@kaboodle/kit';
import { findByPhoto } from '../inventory-api.ts';
import type { SearchHit } from '../inventory-types.ts';

export function usePhotoSearch() {
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);
  const search = useCallback(async (photo: File) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    setError(null);
    try {
      setHits(await findByPhoto(photo, controller.signal));
    } catch (err) {
      if (controller.signal.aborted) return;
      setError(
        isApiError(err)
          ? (err.serverMessage ?? err.message)
          : 'Finding items by photo failed. Please try again.',
      );
    } finally {
      if (running.current === controller) setBusy(false);
    }
  }, []);
  const clear = useCallback(() => {
    running.current?.abort();
    setHits(null);
    setError(null);
    setBusy(false);
  }, []);
  return { hits, busy, error, search, clear };
}
