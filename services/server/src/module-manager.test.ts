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
});
