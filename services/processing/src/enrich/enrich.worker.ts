// Worker-thread entry for the offline enricher: wink-nlp's model and the rules load once per thread,
// and each document's summary, entities and tags are found here, off the service's event loop.
import { serveWorkerTasks } from '../limits/serve-worker-tasks.ts';
import type { DocumentEnrichment, EnrichInput } from './document-enricher.ts';
import { createOfflineEnricher, type OfflineEnricherOptions } from './offline-enricher.ts';

export interface EnrichTask {
  input: EnrichInput;
  options: OfflineEnricherOptions;
}

const enrichers = new Map<string, ReturnType<typeof createOfflineEnricher>>();

serveWorkerTasks<EnrichTask, DocumentEnrichment>(({ input, options }) => {
  const key = JSON.stringify(options);
  let enricher = enrichers.get(key);
  if (!enricher) {
    enricher = createOfflineEnricher(options);
    enrichers.set(key, enricher);
  }
  return enricher.enrich(input);
});
