// Worker-thread entry for the offline embedder: the USE-lite model loads once in this thread and
// every batch runs here, so inference (~21 ms per passage natively, ~100 ms on WASM) never stalls
// the main thread.
import { serveWorkerTasks } from '../limits/serve-worker-tasks.ts';
import { loadUseLiteModel, type UseLiteRuntime } from './use-lite-embedder.ts';

export interface EmbedTask {
  texts: string[];
  runtime: UseLiteRuntime;
}

serveWorkerTasks<EmbedTask, Float32Array[]>(async ({ texts, runtime }) => {
  const model = await loadUseLiteModel(runtime);
  return model.embed(texts);
});
