// Where onnxruntime-node has no binary for the platform (say, Alpine's musl or FreeBSD), `auto`
// falls back to the WASM model with a warning and `native` fails clearly. The load failure is
// simulated with a module mock: the only part here that cannot be produced on this machine.
import { describe, expect, it, vi } from 'vitest';
import { loadUseLiteModel } from './use-lite-embedder.ts';

vi.mock('onnxruntime-node', () => {
  throw new Error('no onnxruntime binary for this platform');
});

describe('offline embedder runtime without onnxruntime-node', () => {
  it('auto falls back to WASM with a warning; native says why it cannot load', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const model = await loadUseLiteModel('auto');
    expect(model.runtime).toBe('wasm');
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/onnxruntime-node is unavailable.*runs on WASM/);
    const [v] = await model.embed(['a woven raffia fan']);
    expect(v).toHaveLength(512);
    await expect(loadUseLiteModel('native')).rejects.toThrow(/loading the offline embedding model/);
    warn.mockRestore();
  }, 60_000);
});
