// One kaboodle's state for its page: load, and every change (rename, describe, cover, reorder,
// remove, note) applied on the server first; an optimistic reorder is rolled back if refused.
import { useCallback, useEffect, useState } from 'react';
import { ApiError, kaboodleErrorText, kaboodlesApi, type Kaboodle, type MemberRef } from '@kaboodle/kit';

export interface KaboodleState {
  kaboodle: Kaboodle | null;
  /** 'missing' for a 404 (another user's id reads the same). */
  status: 'loading' | 'ready' | 'missing' | 'error';
  error: string | null;
  busy: boolean;
  /** Null when saved, else the reason it was refused. */
  update(patch: { name?: string; description?: string; cover?: MemberRef | null }): Promise<string | null>;
  reorder(order: MemberRef[]): Promise<void>;
  removeMembers(members: MemberRef[]): Promise<void>;
  setNote(member: MemberRef, note: string): Promise<void>;
  /** Show a failure that happened outside this hook (a refused delete). */
  fail(err: unknown): void;
}

export function useKaboodle(id: string): KaboodleState {
  const [kaboodle, setKaboodle] = useState<Kaboodle | null>(null);
  const [status, setStatus] = useState<KaboodleState['status']>('loading');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const ctl = new AbortController();
    setStatus('loading');
    kaboodlesApi
      .get(id, ctl.signal)
      .then((k) => {
        setKaboodle(k);
        setStatus('ready');
      })
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        setStatus(err instanceof ApiError && err.status === 404 ? 'missing' : 'error');
        setError(kaboodleErrorText(err));
      });
    return () => ctl.abort();
  }, [id]);

  const run = useCallback(async (work: () => Promise<Kaboodle>, rollback?: Kaboodle | null) => {
    setBusy(true);
    setError(null);
    try {
      setKaboodle(await work());
      return null;
    } catch (err) {
      if (rollback) setKaboodle(rollback);
      const text = kaboodleErrorText(err);
      setError(text);
      return text;
    } finally {
      setBusy(false);
    }
  }, []);

  return {
    kaboodle,
    status,
    error,
    busy,
    update: (patch) => run(() => kaboodlesApi.update(id, patch)),
    async reorder(order) {
      const before = kaboodle;
      if (before) {
        // Show the new order at once; the server's answer (or the old order) replaces it.
        const byKey = new Map(before.members.map((m) => [`${m.type}:${m.id}`, m]));
        const members = order.flatMap((r, position) => {
          const m = byKey.get(`${r.type}:${r.id}`);
          return m ? [{ ...m, position }] : [];
        });
        setKaboodle({ ...before, members });
      }
      await run(() => kaboodlesApi.reorder(id, order), before);
    },
    async removeMembers(members) {
      await run(async () => (await kaboodlesApi.removeMembers(id, members)).kaboodle);
    },
    async setNote(member, note) {
      await run(() => kaboodlesApi.setNote(id, member, note));
    },
    fail: (err) => setError(kaboodleErrorText(err)),
  };
}
