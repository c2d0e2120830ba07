// The file.uploaded consumer: the same analyzer as gRPC Analyze, driven by events. It reports progress on
// kaboodle.file.status.v1 and the result on kaboodle.file.processed.v1. A file a person must fix (wrong
// type, corrupt, password-protected, too large…) ends `failed` with the extractor's reason and is not
// retried; a fault of ours (engine unavailable) is retried with backoff and, on the last attempt,
// reported `failed` too, so no file waits in `processing` forever. A file the person cancels stops: each
// process listens to kaboodle.file.status.v1 for CANCELLED (its own group, from the latest event) and
// aborts that attempt's analysis, or skips it when it has not begun.
import { hostname } from 'node:os';
import type { ConsumeOutcome, EventBus, IncomingEvent, Logger, Subscription } from '@kaboodle/platform';
import { allEnded } from '@kaboodle/platform';
import {
  createEvent,
  decodeEvent,
  Destination,
  encodeEvent,
  eventKey,
  FileState,
  ProcessingStage,
  Topics,
} from '@kaboodle/proto';
import type { EventInit, TopicName } from '@kaboodle/proto';
import { classifyFailure } from './analyze/index.ts';
import type { Analyzer, Destination as AnalyzerDestination, DocumentAnalysisInit } from './analyze/index.ts';
import { DEFAULT_PROCESSING_CONCURRENCY } from './limits/pipeline-config.ts';

export const PROCESSING_GROUP = 'processing';
/** Cancelled attempts remembered so one still queued is skipped when it comes up (oldest dropped). */
const CANCELLED_REMEMBERED = 10_000;
export const MAX_ATTEMPTS = 4;

const DESTINATIONS: Record<number, AnalyzerDestination> = {
  [Destination.UNSPECIFIED]: 'auto',
  [Destination.AUTO]: 'auto',
  [Destination.DOCUMENT]: 'document',
  [Destination.INVENTORY]: 'inventory',
};

export const FAULT_REASON = 'Processing failed on our side after several attempts. Please try again later.';

export interface FileUploadedConsumerDeps {
  bus: EventBus;
  analyzer: Analyzer;
  logger: Logger;
  /** Files analysed at once by this process (bounded memory: each holds one file; default PROCESSING_CONCURRENCY's). */
  concurrency?: number;
}

export async function subscribeFileUploaded(deps: FileUploadedConsumerDeps): Promise<Subscription> {
  const { bus, analyzer, logger } = deps;
  // Analyses under way, and attempts cancelled before theirs began, by `<file id>:<attempt>`.
  const running = new Map<string, AbortController>();
  const cancelled = new Set<string>();
  const attemptKey = (fileId: string, attempt: number) => `${fileId}:${attempt}`;

  async function publish<T extends TopicName>(topic: T, init: EventInit<T>): Promise<void> {
    const event = createEvent(topic, init);
    await bus.publish([{ topic, key: eventKey(topic, event), value: encodeEvent(topic, event) }]);
  }

  async function handle(incoming: IncomingEvent): Promise<ConsumeOutcome> {
    const uploaded = decodeEvent(Topics.fileUploaded, incoming.value);
    const file = uploaded.file;
    if (!file?.fileId || !file.blobKey) {
      logger.warn({ eventId: incoming.id }, 'file.uploaded without a file reference: skipped');
      return 'skipped';
    }
    const key = attemptKey(file.fileId, uploaded.attempt);
    if (cancelled.has(key)) {
      logger.info(
        { fileId: file.fileId, attempt: uploaded.attempt },
        'file cancelled before processing began: skipped',
      );
      return 'done';
    }
    const status = (init: { status: FileState; stage: ProcessingStage; progress: number; error?: string }) =>
      publish(Topics.fileStatus, {
        ownerId: uploaded.ownerId,
        fileId: file.fileId,
        attempt: uploaded.attempt,
        ...init,
      });

    const cancel = new AbortController();
    running.set(key, cancel);
    await status({ status: FileState.PROCESSING, stage: ProcessingStage.EXTRACTING_TEXT, progress: 10 });
    const started = Date.now();
    try {
      const result = await analyzer.analyze(
        {
          blobKey: file.blobKey,
          fileName: file.fileName,
          contentType: file.contentType,
          instructions: uploaded.instructions,
          destination: DESTINATIONS[uploaded.destination] ?? 'auto',
          ...(uploaded.sourceUrl ? { sourceUrl: uploaded.sourceUrl } : {}),
        },
        { signal: cancel.signal },
      );
      if (cancel.signal.aborted) {
        // cancelled as it finished: the result is not reported (the catalogue would drop it)
        logger.info(
          { fileId: file.fileId, attempt: uploaded.attempt },
          'file cancelled while processing: result dropped',
        );
        return 'done';
      }
      await status({ status: FileState.PROCESSING, stage: ProcessingStage.STORING, progress: 90 });
      await publish(Topics.fileProcessed, {
        ownerId: uploaded.ownerId,
        file,
        attempt: uploaded.attempt,
        durationMs: Date.now() - started,
        result:
          result.kind === 'document'
            ? { case: 'document', value: capTextForEvent(result.document) }
            : { case: 'inventoryItem', value: result.inventoryItem },
      });
      // COMPLETED comes from the catalogue once the result is stored (see FileStatus.result_type).
      return 'done';
    } catch (err) {
      const failure = classifyFailure(err);
      if (cancel.signal.aborted || failure.owner === 'cancelled') {
        // The person cancelled: ingestion already shows it, and there is nothing to retry.
        logger.info(
          { fileId: file.fileId, attempt: uploaded.attempt },
          'file cancelled while processing: stopped',
        );
        return 'done';
      }
      if (failure.owner === 'user') {
        // Their file or their choice: the same attempt would fail the same way, so say why at once.
        logger.info({ fileId: file.fileId, reason: failure.reason }, 'file failed');
        await status({
          status: FileState.FAILED,
          stage: ProcessingStage.DONE,
          progress: 100,
          error: failure.reason,
        });
        return 'done';
      }
      logger.warn(
        { err, fileId: file.fileId, attempt: incoming.attempt },
        'processing a file failed; will retry',
      );
      if (incoming.attempt >= MAX_ATTEMPTS) {
        await status({
          status: FileState.FAILED,
          stage: ProcessingStage.DONE,
          progress: 100,
          error: FAULT_REASON,
        });
      }
      return 'retry';
    } finally {
      running.delete(key);
    }
  }

  async function onStatus(incoming: IncomingEvent): Promise<ConsumeOutcome> {
    const event = decodeEvent(Topics.fileStatus, incoming.value);
    if (event.status !== FileState.CANCELLED || !event.fileId) return 'skipped';
    const key = attemptKey(event.fileId, event.attempt);
    cancelled.add(key);
    if (cancelled.size > CANCELLED_REMEMBERED) cancelled.delete(cancelled.values().next().value!);
    const analysis = running.get(key);
    if (analysis) {
      analysis.abort(new Error('Processing was cancelled.'));
      logger.info({ fileId: event.fileId, attempt: event.attempt }, 'cancelling a file being processed');
    }
    return 'done';
  }

  // Every process hears every cancel (a group of its own), from now on: cancels from before it
  // started concern analyses it is not running (and the catalogue drops their results anyway).
  const cancels = await bus.subscribe({
    group: `${PROCESSING_GROUP}.cancels.${hostname()}.${process.pid}`,
    topics: [Topics.fileStatus],
    handler: onStatus,
    maxAttempts: 1,
    concurrency: 16,
    startAt: 'latest',
  });
  let uploads: Subscription;
  try {
    uploads = await bus.subscribe({
      group: PROCESSING_GROUP,
      topics: [Topics.fileUploaded],
      handler: handle,
      maxAttempts: MAX_ATTEMPTS,
      concurrency: deps.concurrency ?? DEFAULT_PROCESSING_CONCURRENCY,
    });
  } catch (err) {
    await cancels.close();
    throw err;
  }
  return {
    async close() {
      await Promise.all([uploads.close(), cancels.close()]);
    },
    ended: allEnded(uploads.ended, cancels.ended),
  };
}

/**
 * Most characters of extracted text an event carries (about 300 kB gzip-compressed): Kafka's default
 * message limit is 1 MB, and a 20 MB text file can hold 20 million characters. Longer texts are cut
 * and marked truncated; the summary, tags, vectors and passages were computed before the cut.
 */
export const EVENT_TEXT_MAX_CHARS = 1_000_000;

function capTextForEvent(document: DocumentAnalysisInit): DocumentAnalysisInit {
  const text = document.text;
  if (!text?.text || text.text.length <= EVENT_TEXT_MAX_CHARS) return document;
  const cut = { ...text, text: text.text.slice(0, EVENT_TEXT_MAX_CHARS), truncated: true };
  return { ...document, text: cut } as DocumentAnalysisInit;
}
