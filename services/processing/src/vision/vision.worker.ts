// Worker-thread entry for the image measurer: the detector, palette and barcode reader load once
// per thread and stay warm for the next photo.
import { serveWorkerTasks } from '../limits/serve-worker-tasks.ts';
import { measureImage, type ImageMeasurements } from './measure-image.ts';

export interface MeasureTask {
  bytes: Uint8Array;
}

serveWorkerTasks<MeasureTask, ImageMeasurements>(({ bytes }) => measureImage(bytes));
