import { describe, expect, it } from 'vitest';
import { ModuleManager, UnknownTargetError } from './module-manager.ts';

function manager(log: string[]) {
  const mod = (id: string) => ({
    init: () => ({
      start: async () => void log.push(`start ${id}`),
      stop: async () => void log.push(`stop ${id}`),
    }),
  });
  return new ModuleManager<object>()
    .register('database', { deps: [], userVisible: false, ...mod('database') })
    .register('http-server', { deps: [], userVisible: false, ...mod('http-server') })
    .register('auth', { deps: ['database', 'http-server'], userVisible: true, ...mod('auth') })
    .register('catalogue', { deps: ['database', 'http-server'], userVisible: true, ...mod('catalogue') })
    .register('all', { deps: ['auth', 'catalogue'], userVisible: true });
}

describe('ModuleManager', () => {
  it('resolves dependencies before dependents, each once', () => {
    expect(manager([]).resolve(['all'])).toEqual(['database', 'http-server', 'auth', 'catalogue', 'all']);
  });

  it('starts in dependency order and stops in reverse', async () => {
    const log: string[] = [];
    const m = manager(log);
    await m.startAll(['catalogue'], {});
    await m.stopAll();
    expect(log).toEqual([
      'start database',
      'start http-server',
      'start catalogue',
      'stop catalogue',
      'stop http-server',
      'stop database',
    ]);
  });

  it('rejects unknown and infrastructure targets, naming every one', () => {
    expect(() => manager([]).parseTargets('auth,nope,database')).toThrow(UnknownTargetError);
    try {
      manager([]).parseTargets('auth,nope,database');
    } catch (err) {
      expect((err as Error).message.split('\n')).toHaveLength(2);
      expect((err as Error).message).toContain('"nope"');
    }
  });

  it('accepts comma lists and removes duplicates', () => {
    expect(manager([]).parseTargets('auth, catalogue,auth')).toEqual(['auth', 'catalogue']);
  });

  it('stops what started when a later module fails to start', async () => {
    const log: string[] = [];
    const m = manager(log).register('broken', {
      deps: ['database'],
      userVisible: true,
      init: () => ({
        start: async () => {
          throw new Error('boom');
        },
      }),
    });
    await expect(m.startAll(['broken'], {})).rejects.toThrow('boom');
    expect(log).toEqual(['start database', 'stop database']);
  });

  it('detects dependency cycles', () => {
    const m = new ModuleManager<object>()
      .register('a', { deps: ['b'], userVisible: true })
      .register('b', { deps: ['a'], userVisible: true });
    expect(() => m.resolve(['a'])).toThrow(/cycle: a -> b -> a/);
  });

  describe('a module whose background loop throws after start', () => {
    /** A worker whose loop ticks until stopped, or throws `fault` on its third tick. */
    function worker(fault: Error | undefined) {
      const stop = new AbortController();
      let loop: Promise<void> | undefined;
      return {
        deps: ['database'],
        userVisible: true,
        init: () => ({
          start: async () => {
            loop = (async () => {
              for (let tick = 1; !stop.signal.aborted; tick += 1) {
                await new Promise((r) => setTimeout(r, 5));
                if (fault && tick === 3) throw fault;
              }
              throw new Error('stopped'); // a loop may end by throwing when it is stopped
            })();
          },
          stop: async () => {
            stop.abort();
            await loop?.catch(() => undefined);
          },
          background: () => loop!,
        }),
      };
    }

    it('is reported once, by its id, with the error it threw', async () => {
      const m = manager([]).register('worker', worker(new Error('index writer crashed')));
      const failures: string[] = [];
      await m.startAll(['worker'], {}, { onFailure: (id, err) => failures.push(`${id}: ${err.message}`) });
      await expect.poll(() => failures).toEqual(['worker: index writer crashed']);
      await m.stopAll();
      expect(failures).toHaveLength(1);
    });

    it('is not reported when the loop ends because the module stops', async () => {
      const m = manager([]).register('worker', worker(undefined));
      const failures: string[] = [];
      await m.startAll(['worker'], {}, { onFailure: (id) => failures.push(id) });
      await m.stopAll();
      await new Promise((r) => setTimeout(r, 20));
      expect(failures).toEqual([]);
    });
  });
});
