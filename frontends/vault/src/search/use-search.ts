// The Search screen's state (docs/product.md#search, #states, #validation, #limits): the query and the
// mode, the phase (idle/loading/results/empty/error), the results, and the runs that fill them: after a
// 300 ms pause in typing, at once on a mode change or a submit, or from a photo. Only the latest run's
// answer counts.
import { useCallback, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useDebouncedValue } from '../common/debounce.ts';
import type { SearchHit } from '../documents/document-types.ts';
import { photoSearch, unifiedSearch, type SearchMode } from './search-api.ts';

export type Phase = 'idle' | 'loading' | 'results' | 'empty' | 'error';

export function useSearch(userId: string | undefined) {
  const [text, setText] = useState('');
  const [mode, setMode] = useState<SearchMode>('semantic');
  const [phase, setPhase] = useState<Phase>('idle');
  const [results, setResults] = useState<SearchHit[]>([]);
  const [ranQuery, setRanQuery] = useState('');
  const debounced = useDebouncedValue(text);
  const runId = useRef(0);
  const lastRun = useRef<{ q: string; mode: SearchMode } | null>(null);

  /** Runs one search and shows its answer (the error state says it failed: "Search Error"). */
  const show = useCallback(async (search: () => Promise<SearchHit[]>, query: string) => {
    const id = ++runId.current;
    setPhase('loading');
    try {
      const hits = await search();
      if (id !== runId.current) return;
      setResults(hits);
      setRanQuery(query);
      setPhase(hits.length > 0 ? 'results' : 'empty');
    } catch {
      if (id !== runId.current) return;
      setResults([]);
      setPhase('error');
    }
  }, []);

  const run = useCallback(
    async (raw: string, searchMode: SearchMode) => {
      const query = raw.trim();
      if (query === '') {
        ++runId.current;
        setResults([]);
        setRanQuery('');
        setPhase('idle');
        return;
      }
      await show(() => unifiedSearch(query, searchMode, userId ? { userId } : {}), query);
    },
    [userId, show],
  );

  // Typing searches after the pause; a mode change searches at once when there is text.
  const runOnce = useCallback(
    (q: string, m: SearchMode, force = false) => {
      if (!force && lastRun.current && lastRun.current.q === q.trim() && lastRun.current.mode === m) return;
      lastRun.current = { q: q.trim(), mode: m };
      void run(q, m);
    },
    [run],
  );
  // Only a settled text runs from here (with the mode of the moment); a mode change runs below.
  const textSettled = useEffectEvent((q: string) => runOnce(q, mode));
  useEffect(() => textSettled(debounced), [debounced]);

  const changeText = (value: string) => {
    setText(value);
    // A blank box clears the results at once, with no request (docs/product.md#validation).
    if (value.trim() === '') runOnce('', mode);
  };
  const changeMode = (m: SearchMode) => {
    setMode(m);
    if (text.trim() !== '') runOnce(text, m);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() === '' || phase === 'loading') return;
    runOnce(text, mode, true);
  };
  const retry = () => runOnce(text, mode, true);
  // Find by photo: the same results list, ranked by how alike the photos look.
  const byPhoto = (photo: File) => {
    lastRun.current = null;
    void show(() => photoSearch(photo), '');
  };
  const example = (q: string) => {
    setText(q);
    runOnce(q, mode, true);
  };

  return { text, mode, phase, results, ranQuery, changeText, changeMode, submit, retry, byPhoto, example };
}
