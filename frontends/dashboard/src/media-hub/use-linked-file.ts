// /media-hub?file=<id>: a link from elsewhere (an inventory item's "Media Hub" button, a document's
// source) opens that file's preview at once, wherever it sits in the paged list. The file is fetched
// by id (GET /process/status/:id answers only the owner's files); an unknown id says so.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { reasonOf, type DashboardApi, type ServerFile } from '../lib/dashboard-api.ts';

/** `open` must be stable (a state setter): the file is fetched again whenever it changes. */
export function useLinkedFile(calls: DashboardApi, open: (file: ServerFile) => void): string | null {
  const [params] = useSearchParams();
  const id = params.get('file');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setProblem(null);
    if (!id) return;
    const controller = new AbortController();
    calls
      .status(id, controller.signal)
      .then(open)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setProblem(`The linked file could not be opened: ${reasonOf(err)}`);
      });
    return () => controller.abort();
  }, [calls, id, open]);
  return problem;
}
