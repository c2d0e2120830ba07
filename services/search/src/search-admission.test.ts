// The bound on searches: a turn for `concurrency` at once, `queued` more wait, the next is refused
// at once; a waiting search whose caller went away leaves the queue without running.
import { describe, expect, it } from 'vitest';
import { createSearchAdmission, SEARCH_BUSY, SearchBusyError } from './search-admission.ts';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
};

describe('search admission', () => {
  it('runs `concurrency` at once, queues `queued`, and refuses the next at once', async () => {
    const admission = createSearchAdmission({ concurrency: 2, queued: 1 });
    const g = gate();
    const started: number[] = [];
    const work = (n: number) => async () => {
      started.push(n);
      await g.opened;
      return n;
    };
    const a = admission.run(work(1));
    const b = admission.run(work(2));
    const c = admission.run(work(3));
    await expect(admission.run(work(4))).rejects.toThrow(SearchBusyError);
    await expect(admission.run(work(4))).rejects.toThrow(SEARCH_BUSY);
    expect(admission.stats()).toMatchObject({ running: 2, waiting: 1, refused: 2 });
    expect(started).toEqual([1, 2]);
    g.open();
    expect(await Promise.all([a, b, c])).toEqual([1, 2, 3]);
    expect(started).toEqual([1, 2, 3]);
    // the turns are free again
    expect(await admission.run(async () => 5)).toBe(5);
  });

  it('drops a waiting search whose caller went away, freeing its place; it never runs', async () => {
    const admission = createSearchAdmission({ concurrency: 1, queued: 1 });
    const g = gate();
    const ran: string[] = [];
    const first = admission.run(async () => {
      ran.push('first');
      await g.opened;
    });
    const gone = new AbortController();
    const waiting = admission.run(async () => void ran.push('gone'), gone.signal);
    await expect(admission.run(async () => undefined)).rejects.toThrow(SearchBusyError);
    gone.abort(new Error('client closed'));
    await expect(waiting).rejects.toThrow('client closed');
    expect(admission.stats()).toMatchObject({ running: 1, waiting: 0, abandoned: 1 });
    const next = admission.run(async () => void ran.push('next'));
    g.open();
    await Promise.all([first, next]);
    expect(ran).toEqual(['first', 'next']);
  });

  it('does not start a search whose caller is gone already', async () => {
    const admission = createSearchAdmission({ concurrency: 1, queued: 0 });
    const gone = new AbortController();
    gone.abort(new Error('client closed'));
    let ran = false;
    await expect(admission.run(async () => (ran = true), gone.signal)).rejects.toThrow('client closed');
    expect(ran).toBe(false);
    expect(admission.stats().running).toBe(0);
  });
});
