// The reader's data: the document (GET /api/documents/:id), its related items (/api/search/related) and
// near-duplicates (/api/search/duplicates), loaded again whenever another document is chosen. A
// failure leaves a text to show where the content would have been.
import { useEffect, useState } from 'react';
import type { DocumentDetail, SearchHit } from '../../document-types.ts';
import { fetchDocument, fetchDuplicates, fetchRelated } from '../../documents-api.ts';

export const RELATED_FAILED = 'Loading related items failed.';
export const DUPLICATES_FAILED = 'Loading near-duplicates failed.';

/** A list that is loading (null), loaded, or failed with a text to show. */
export interface HitsState {
  hits: SearchHit[] | null;
  error: string | null;
}
const LOADING: HitsState = { hits: null, error: null };

export function useDocumentDetail(current: string | null) {
  const [detail, setDetail] = useState<DocumentDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [related, setRelated] = useState<HitsState>(LOADING);
  const [duplicates, setDuplicates] = useState<HitsState>(LOADING);

  useEffect(() => {
    if (!current) return;
    let live = true;
    setError(null);
    setDetail((d) => (d?.id === current ? d : null));
    setRelated(LOADING);
    setDuplicates(LOADING);
    fetchDocument(current)
      .then((d) => live && setDetail(d))
      .catch((err: unknown) => {
        if (live) setError(err instanceof Error ? err.message : 'The document could not be loaded.');
      });
    fetchRelated(current)
      .then(
        (r) =>
          live &&
          setRelated({ hits: r.filter((h) => !(h.type === 'document' && h.id === current)), error: null }),
      )
      .catch(() => live && setRelated({ hits: [], error: RELATED_FAILED }));
    fetchDuplicates(current)
      .then((r) => live && setDuplicates({ hits: r, error: null }))
      .catch(() => live && setDuplicates({ hits: [], error: DUPLICATES_FAILED }));
    return () => {
      live = false;
    };
  }, [current]);

  return { detail, setDetail, error, related, duplicates };
}
