// Worker-thread entry for the image measurer: the detector, palette and barcode reader load once
// per thread and stay warm for the next photo.
import { serveWorkerTasks } from '../limits/serve-worker-tasks.ts';
import { embedImage } from './image-embedder.ts';
import { measureImage, type ImageMeasurements } from './measure-image.ts';

export interface MeasureTask {
  bytes: Uint8Array;
  /** measure (default): everything; embed: only the image vector (a find-by-photo query). */
  kind?: 'measure' | 'embed';
}

serveWorkerTasks<MeasureTask, ImageMeasurements | Float32Array>(({ bytes, kind }) =>
  kind === 'embed' ? embedImage(bytes) : measureImage(bytes),
);
