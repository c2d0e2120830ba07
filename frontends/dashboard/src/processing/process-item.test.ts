// processItem against a scripted server (the ingestion API's answers as the contract gives them):
// upload → status polling → completed or failed, duplicates, cancel during upload and processing,
// reprocess on retry, and the docs/product.md#messages texts.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@kaboodle/kit';
import type { ServerFile } from '../lib/dashboard-api.ts';
import { CANCELLED_BY_USER, MAX_POLL_FAILURES, processItem, type ProcessDeps } from './process-item.ts';
import { admitFiles, admitUrl, type QueueItem } from './queue.ts';

function serverFile(patch: Partial<ServerFile> = {}): ServerFile {
  return {
    id: 'f1',
    name: 'report.pdf',
    size: 10,
    content_type: 'application/pdf',
    status: 'queued',
    stage: null,
    progress: 0,
    error: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    attempt: 1,
    destination: 'auto',
    source_url: null,
    result: null,
    sample: false,
    ...patch,
  };
}

const done = serverFile({
  status: 'completed',
  stage: 'done',
  progress: 100,
  result: { type: 'document', id: 'f1', url: '/documents?open=f1' },
});

function item(): QueueItem {
  const file = new File([new Uint8Array([37, 80, 68, 70])], 'report.pdf', { type: 'application/pdf' });
  return admitFiles([file], []).items[0]!;
}

function fakeApi(statuses: (ServerFile | Error)[], uploaded: ServerFile | Error = serverFile()) {
  let i = 0;
  const api = {
    uploadFile: vi.fn(async (_form: FormData, onProgress: (p: number) => void, signal?: AbortSignal) => {
      onProgress(50);
      onProgress(100);
      if (signal?.aborted) throw new ApiError({ status: 0, kind: 'aborted', message: 'Request cancelled' });
      if (uploaded instanceof Error) throw uploaded;
      return uploaded;
    }),
    processUrl: vi.fn(async () => serverFile({ name: 'https://example.com/a.pdf' })),
    reprocess: vi.fn(async () => serverFile({ attempt: 2 })),
    status: vi.fn(async () => {
      const next = statuses[Math.min(i++, statuses.length - 1)]!;
      if (next instanceof Error) throw next;
      return next;
    }),
    cancel: vi.fn(async () => serverFile({ status: 'cancelled', message: 'Processing cancelled' })),
  };
  return api;
}

const noSleep: ProcessDeps['sleep'] = async () => undefined;
const options = { instructions: '  Find the deadlines  ', destination: 'document' as const };

describe('processItem', () => {
  it('uploads with the instructions and destination, maps progress, and completes with the result', async () => {
    const api = fakeApi([serverFile({ status: 'processing', stage: 'analyzing', progress: 40 }), done]);
    const patches: Partial<QueueItem>[] = [];
    const outcome = await processItem(
      item(),
      options,
      { api, sleep: noSleep },
      new AbortController().signal,
      (p) => patches.push(p),
    );
    expect(outcome).toMatchObject({ status: 'completed', file: { result: { url: '/documents?open=f1' } } });
    const form = api.uploadFile.mock.calls[0]![0];
    expect(form.get('instructions')).toBe('Find the deadlines');
    expect(form.get('destination')).toBe('document');
    expect((form.get('file') as File).name).toBe('report.pdf');
    const progress = patches.filter((p) => p.progress !== undefined).map((p) => p.progress);
    expect(progress).toEqual([0, 15, 30, 30, 58, 100]);
    expect(patches.some((p) => p.phase === 'Analyzing')).toBe(true);
    expect(patches.find((p) => p.serverId)?.serverId).toBe('f1');
  });

  it('fails with the reason processing gave', async () => {
    const api = fakeApi([
      serverFile({ status: 'failed', error: 'The file is not a PDF (it is a PNG image)' }),
    ]);
    await expect(
      processItem(item(), options, { api, sleep: noSleep }, new AbortController().signal, () => undefined),
    ).resolves.toMatchObject({ status: 'failed', reason: 'The file is not a PDF (it is a PNG image)' });
  });

  it('fails with the server message of a refused upload, else "Upload failed with status"', async () => {
    const refused = new ApiError({
      status: 400,
      kind: 'http',
      message: 'Upload failed with status: 400',
      serverMessage: 'Unsupported file type: application/x-msdownload',
    });
    await expect(
      processItem(
        item(),
        options,
        { api: fakeApi([], refused), sleep: noSleep },
        new AbortController().signal,
        () => undefined,
      ),
    ).resolves.toMatchObject({
      status: 'failed',
      reason: 'Unsupported file type: application/x-msdownload',
      file: null,
    });
    const bare = new ApiError({ status: 413, kind: 'http', message: 'Upload failed with status: 413' });
    await expect(
      processItem(
        item(),
        options,
        { api: fakeApi([], bare), sleep: noSleep },
        new AbortController().signal,
        () => undefined,
      ),
    ).resolves.toMatchObject({ reason: 'Upload failed with status: 413' });
  });

  it('reports an upload cancelled by the person in the spec words', async () => {
    const controller = new AbortController();
    controller.abort(CANCELLED_BY_USER);
    await expect(
      processItem(item(), options, { api: fakeApi([]), sleep: noSleep }, controller.signal, () => undefined),
    ).resolves.toEqual({ status: 'failed', reason: 'Upload cancelled for file "report.pdf"', file: null });
  });

  it('asks the server to cancel when cancelled during processing', async () => {
    const controller = new AbortController();
    const api = fakeApi([serverFile({ status: 'processing', progress: 10 })]);
    const sleep: ProcessDeps['sleep'] = async () => {
      controller.abort(CANCELLED_BY_USER);
    };
    const outcome = await processItem(item(), options, { api, sleep }, controller.signal, () => undefined);
    expect(api.cancel).toHaveBeenCalledWith('f1');
    expect(outcome).toMatchObject({ status: 'failed', reason: 'Processing cancelled' });
  });

  it('leaving the page stops following without cancelling on the server', async () => {
    const controller = new AbortController();
    const api = fakeApi([serverFile({ status: 'processing' })]);
    const sleep: ProcessDeps['sleep'] = async () => {
      controller.abort('page-left');
    };
    await expect(
      processItem(item(), options, { api, sleep }, controller.signal, () => undefined),
    ).resolves.toEqual({
      status: 'abandoned',
    });
    expect(api.cancel).not.toHaveBeenCalled();
  });

  it('shows a duplicate with the server note and follows the existing file', async () => {
    const api = fakeApi([], { ...done, duplicate: true, message: '"report.pdf" was already uploaded' });
    const patches: Partial<QueueItem>[] = [];
    const outcome = await processItem(
      item(),
      options,
      { api, sleep: noSleep },
      new AbortController().signal,
      (p) => patches.push(p),
    );
    expect(outcome.status).toBe('completed');
    expect(patches.some((p) => p.duplicateNote === '"report.pdf" was already uploaded')).toBe(true);
    expect(api.status).not.toHaveBeenCalled();
  });

  it('reprocesses instead of uploading again when the server already has the file (Retry)', async () => {
    const api = fakeApi([done]);
    const retried = { ...item(), serverId: 'f1' };
    await expect(
      processItem(retried, options, { api, sleep: noSleep }, new AbortController().signal, () => undefined),
    ).resolves.toMatchObject({ status: 'completed' });
    expect(api.uploadFile).not.toHaveBeenCalled();
    expect(api.reprocess).toHaveBeenCalledWith('f1', {
      instructions: 'Find the deadlines',
      destination: 'document',
    });
  });

  it('submits a pasted link as JSON', async () => {
    const api = fakeApi([done]);
    const link = admitUrl('https://example.com/a.pdf', []).items[0]!;
    await processItem(
      link,
      { instructions: '', destination: 'auto' },
      { api, sleep: noSleep },
      new AbortController().signal,
      () => undefined,
    );
    expect(api.processUrl).toHaveBeenCalledWith(
      { url: 'https://example.com/a.pdf', destination: 'auto' },
      expect.anything(),
    );
  });

  it('tolerates a few failed status polls, then fails with the error text', async () => {
    const blip = new ApiError({
      status: 0,
      kind: 'network',
      message: 'Unable to connect to the server. Please check your connection and try again.',
    });
    const recovered = fakeApi([blip, blip, done]);
    await expect(
      processItem(
        item(),
        options,
        { api: recovered, sleep: noSleep },
        new AbortController().signal,
        () => undefined,
      ),
    ).resolves.toMatchObject({ status: 'completed' });
    const down = fakeApi(Array.from({ length: MAX_POLL_FAILURES }, () => blip));
    await expect(
      processItem(
        item(),
        options,
        { api: down, sleep: noSleep },
        new AbortController().signal,
        () => undefined,
      ),
    ).resolves.toMatchObject({
      status: 'failed',
      reason: 'Unable to connect to the server. Please check your connection and try again.',
    });
  });
});
