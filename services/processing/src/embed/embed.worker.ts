// Worker-thread entry for the offline embedder: the USE-lite model loads once in this thread and
// every batch runs here, so ~100 ms of WASM inference per passage never stalls the main thread.
import { serveWorkerTasks } from '../limits/serve-worker-tasks.ts';
import { loadUseLiteModel } from './use-lite-embedder.ts';

export interface EmbedTask {
  texts: string[];
}

serveWorkerTasks<EmbedTask, Float32Array[]>(async ({ texts }) => {
  const model = await loadUseLiteModel();
  const vectors = await model.embed(texts);
  return vectors.map((v) => Float32Array.from(v));
});
