// Ingestion beside the searches: text files uploaded through the product's real upload API at a fixed
// rate (default 300 files/min) by the bench user, as pipeline-throughput.bench.ts makes them; what the
// server completed meanwhile is read back from GET /process/files (its own clock), so the files/min
// achieved is what the pipeline finished, not what was sent.
import { randomBytes } from 'node:crypto';
import { ingestionClient } from '../../support/ingestion-client.ts';
import { textFor } from '../bench-texts.ts';

export interface IngestReport {
  uploaded: number;
  rejected: number;
  firstRejection?: string;
  /** Files the server completed (by its updated_at) between start and stop, per minute. */
  completedPerMin: number;
  failed: number;
}

let serial = 0;

/** Start uploading `perMin` text files a minute; stop() ends the uploads and reports. */
export function startIngesting(
  url: string,
  token: () => string,
  perMin: number,
): { stop(): Promise<IngestReport> } {
  const api = ingestionClient(url);
  const startedAt = Date.now();
  const ids = new Set<string>();
  let rejected = 0;
  let firstRejection: string | undefined;
  const inFlight = new Set<Promise<void>>();
  const upload = () => {
    const i = serial++;
    const bytes = Buffer.from(textFor(i, `zq${randomBytes(6).toString('hex')}`));
    const p = api
      .upload(token(), { bytes, name: `bench-notes-${i}.txt`, type: 'text/plain' }, {}, '/upload')
      .then((res) => {
        if (res.status === 202) ids.add(res.body.id);
        else {
          rejected++;
          firstRejection ??= `HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        }
      })
      .catch((err: Error) => {
        rejected++;
        firstRejection ??= err.message;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  // Paced from the start time, so a slow answer does not lower the offered rate.
  const interval = 60_000 / perMin;
  let sent = 0;
  const timer = setInterval(
    () => {
      while (sent * interval <= Date.now() - startedAt) {
        sent++;
        upload();
      }
    },
    Math.min(50, interval),
  );
  return {
    async stop() {
      clearInterval(timer);
      const stoppedAt = Date.now();
      await Promise.all(inFlight);
      let completed = 0;
      let failed = 0;
      for (let page = 1; ; page++) {
        const list = await api.call<{ files: { id: string; status: string; updated_at: string }[] }>(
          'GET',
          `/process/files?limit=100&page=${page}`,
          token(),
        );
        if (list.status !== 200) throw new Error(`GET /process/files answered ${list.status}`);
        for (const f of list.body.files) {
          if (!ids.has(f.id)) continue;
          const at = Date.parse(f.updated_at);
          if (f.status === 'failed') failed++;
          else if (f.status === 'completed' && at >= startedAt && at <= stoppedAt) completed++;
        }
        if (list.body.files.length < 100) break;
      }
      return {
        uploaded: ids.size,
        rejected,
        ...(firstRejection ? { firstRejection } : {}),
        completedPerMin: (completed / (stoppedAt - startedAt)) * 60_000,
        failed,
      };
    },
  };
}
