// The catalogue's consumer (group `catalogue`): file.processed becomes a document or an inventory item;
// file.uploaded, file.status FAILED and file.deleted keep the per-user stats and activity, and a
// deleted file takes what it produced with it. At-least-once delivery is fine: see catalogue.service.ts.
import type { ConsumeOutcome, EventBus, IncomingEvent, Logger, Subscription } from '@kaboodle/platform';
import { decodeEvent, Topics } from '@kaboodle/proto';
import type { ApplyOutcome, CatalogueService } from './catalogue.service.ts';

export const CATALOGUE_GROUP = 'catalogue';
export const CATALOGUE_TOPICS = [
  Topics.fileProcessed,
  Topics.fileUploaded,
  Topics.fileStatus,
  Topics.fileDeleted,
];
export const MAX_ATTEMPTS = 5;

export interface FileEventsConsumerDeps {
  bus: EventBus;
  service: CatalogueService;
  logger: Logger;
  concurrency?: number;
  maxAttempts?: number;
  backoffMs?: (attempt: number) => number;
}

const outcome = (o: ApplyOutcome): ConsumeOutcome => (o === 'stored' ? 'done' : 'skipped');

export function createFileEventsHandler(deps: Omit<FileEventsConsumerDeps, 'bus'>) {
  const { service, logger } = deps;
  const maxAttempts = deps.maxAttempts ?? MAX_ATTEMPTS;

  function decode<T extends (typeof CATALOGUE_TOPICS)[number]>(topic: T, event: IncomingEvent) {
    try {
      return decodeEvent(topic, event.value);
    } catch (err) {
      logger.error({ err, eventId: event.id, topic }, 'undecodable event: dead-lettered');
      return undefined;
    }
  }

  return async function handle(event: IncomingEvent): Promise<ConsumeOutcome> {
    switch (event.topic) {
      case Topics.fileProcessed: {
        const e = decode(Topics.fileProcessed, event);
        if (!e) return 'failed';
        try {
          const o = await service.applyProcessed(e);
          if (o === 'invalid')
            logger.warn({ eventId: event.id, fileId: e.file?.fileId }, 'file.processed refused');
          else if (o !== 'stored') logger.debug({ eventId: event.id, outcome: o }, 'file.processed skipped');
          return outcome(o);
        } catch (err) {
          if (event.attempt >= maxAttempts) {
            logger.error({ err, fileId: e.file?.fileId }, 'storing a processed file failed for good');
            await service.failStoring(e);
            return 'failed';
          }
          throw err; // retried with backoff
        }
      }
      case Topics.fileUploaded: {
        const e = decode(Topics.fileUploaded, event);
        return e ? outcome(await service.applyUploaded(e, e.eventId || event.id)) : 'failed';
      }
      case Topics.fileStatus: {
        const e = decode(Topics.fileStatus, event);
        return e ? outcome(await service.applyStatus(e, e.eventId || event.id)) : 'failed';
      }
      case Topics.fileDeleted: {
        const e = decode(Topics.fileDeleted, event);
        return e ? outcome(await service.applyFileDeleted(e, e.eventId || event.id)) : 'failed';
      }
      default:
        return 'skipped';
    }
  };
}

export function subscribeFileEvents(deps: FileEventsConsumerDeps): Promise<Subscription> {
  return deps.bus.subscribe({
    group: CATALOGUE_GROUP,
    topics: [...CATALOGUE_TOPICS],
    handler: createFileEventsHandler(deps),
    maxAttempts: deps.maxAttempts ?? MAX_ATTEMPTS,
    concurrency: deps.concurrency ?? 4,
    ...(deps.backoffMs ? { backoffMs: deps.backoffMs } : {}),
  });
}
