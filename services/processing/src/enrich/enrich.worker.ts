// Worker-thread entry for the offline enricher: wink-nlp's model and the rules load once per thread,
// and each document's summary, entities and tags are found here, off the service's event loop.
import { workerData } from 'node:worker_threads';
import { serveWorkerTasks } from '../limits/serve-worker-tasks.ts';
import type { DocumentEnrichment, EnrichInput } from './document-enricher.ts';
import { createOfflineEnricher, type OfflineEnricherOptions } from './offline-enricher.ts';

export interface EnrichTask {
  input: EnrichInput;
}

// The pool's options, fixed for the thread's life (workerData).
const enricher = createOfflineEnricher((workerData ?? {}) as OfflineEnricherOptions);

serveWorkerTasks<EnrichTask, DocumentEnrichment>(({ input }) => enricher.enrich(input));
