// The release version, read once from the repository's package.json (the API document and telemetry).
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const VERSION: string = JSON.parse(
  readFileSync(path.join(here, '../../../package.json'), 'utf8'),
).version;
