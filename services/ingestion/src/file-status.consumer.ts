// Keeps each file's status, stage and progress in step with kaboodle.file.status.v1: processing reports
// stages up to STORING 90 (or FAILED), the catalogue reports COMPLETED with what the file became.
// Idempotent: only the file's current attempt counts, an ended file keeps its end and progress never
// goes backwards, so redelivery (or a late status of an earlier attempt) is harmless.
import type { EventBus, Logger, Subscription } from '@kaboodle/platform';
import { decodeEvent, EntityType, FileState, ProcessingStage, Topics } from '@kaboodle/proto';
import type { FileRepository, FileStatus, ResultType } from './file.repository.ts';
import { isFileId } from './file.repository.ts';

const STATES: Partial<Record<FileState, FileStatus>> = {
  [FileState.QUEUED]: 'queued',
  [FileState.PROCESSING]: 'processing',
  [FileState.COMPLETED]: 'completed',
  [FileState.FAILED]: 'failed',
  [FileState.CANCELLED]: 'cancelled',
};

const STAGES: Partial<Record<ProcessingStage, string>> = {
  [ProcessingStage.UPLOADED]: 'uploaded',
  [ProcessingStage.EXTRACTING_TEXT]: 'extracting_text',
  [ProcessingStage.ANALYZING]: 'analyzing',
  [ProcessingStage.EMBEDDING]: 'embedding',
  [ProcessingStage.STORING]: 'storing',
  [ProcessingStage.DONE]: 'done',
};

const RESULT_TYPES: Partial<Record<EntityType, ResultType>> = {
  [EntityType.DOCUMENT]: 'document',
  [EntityType.INVENTORY_ITEM]: 'inventory_item',
};

export function subscribeFileStatus(deps: {
  bus: EventBus;
  files: FileRepository;
  logger: Logger;
}): Promise<Subscription> {
  return deps.bus.subscribe({
    group: 'ingestion.file-status',
    topics: [Topics.fileStatus],
    concurrency: 4,
    async handler(event) {
      const s = decodeEvent(Topics.fileStatus, event.value);
      const status = STATES[s.status];
      if (!status || !isFileId(s.fileId)) return 'skipped';
      const applied = await deps.files.applyStatus(s.fileId, {
        status,
        stage: STAGES[s.stage] ?? 'processing',
        progress: Math.max(0, Math.min(100, s.progress)),
        error: status === 'failed' ? s.error || 'Processing failed' : null,
        attempt: s.attempt,
        result:
          status === 'completed' && RESULT_TYPES[s.resultType] && s.resultId
            ? { type: RESULT_TYPES[s.resultType]!, id: s.resultId }
            : null,
      });
      return applied ? 'done' : 'skipped';
    },
  });
}
