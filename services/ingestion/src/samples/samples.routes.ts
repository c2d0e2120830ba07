// The sample library's handlers: loading stores each sample file the user does not have yet exactly
// as an upload is stored (ingestion.service.ts), so the real pipeline reads, enriches and files them;
// removing deletes them like the Media Hub's Delete.
import type { ApiRouter } from '@kaboodle/platform';
import type { IngestionService } from '../ingestion.service.ts';
import { statusBody } from '../ingestion.routes.ts';
import { SAMPLE_LIBRARY } from './sample-library.ts';
import { getSamples, loadSamples, removeSamples } from './samples.api.ts';

export function registerSampleRoutes(api: ApiRouter, service: IngestionService): void {
  const available = SAMPLE_LIBRARY.length;

  api.handle(getSamples, async ({ user, reply }) => {
    reply(200, { loaded: await service.samplesLoaded(user.id), available });
  });

  api.handle(loadSamples, async ({ user, reply }) => {
    const { loaded, queued } = await service.loadSamples(user.id);
    reply(202, { loaded, available, files: queued.map(statusBody) });
  });

  api.handle(removeSamples, async ({ user, reply }) => {
    reply(200, { deleted: await service.removeSamples(user.id) });
  });
}
