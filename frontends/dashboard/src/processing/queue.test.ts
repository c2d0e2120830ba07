// The Processing Hub's rules without a browser: the validation texts (docs/product.md#validation), the item
// transitions (docs/product.md#states), and how the progress bars are computed.
import { describe, expect, it } from 'vitest';
import { ACCEPT, MAX_FILE_BYTES, newItemId, parseUrl, resolveFileType, validateFile } from './file-rules.ts';
import {
  admitFiles,
  admitUrl,
  initialQueue,
  overallProgress,
  processingBar,
  queueReducer,
  uploadBar,
  type QueueItem,
  type QueueState,
} from './queue.ts';

const pdf = (name: string, size = 1000) => ({ name, size, type: 'application/pdf', lastModified: 1 });

function withItems(...statuses: QueueItem['status'][]): QueueState {
  const { items } = admitFiles(
    statuses.map((_, i) => pdf(`f${i}.pdf`)),
    [],
  );
  return { items: items.map((it, i) => ({ ...it, status: statuses[i]! })), errors: [] };
}

describe('file rules (docs/product.md#validation, #limits)', () => {
  it('rejects a file over 20 MB with its size in MB to two decimals', () => {
    expect(validateFile(pdf('big.pdf', MAX_FILE_BYTES + 1), new Set())).toBe(
      'File size exceeds 20MB limit (20.00MB)',
    );
    expect(validateFile(pdf('big.pdf', 25 * 1024 * 1024 + 5243), new Set())).toBe(
      'File size exceeds 20MB limit (25.01MB)',
    );
    expect(validateFile(pdf('edge.pdf', MAX_FILE_BYTES), new Set())).toBeNull();
  });

  it('rejects types outside PDF, JPEG, PNG, text, DOC and DOCX, naming the type', () => {
    expect(validateFile({ name: 'setup.exe', size: 10, type: 'application/x-msdownload' }, new Set())).toBe(
      'Unsupported file type: application/x-msdownload',
    );
    expect(validateFile({ name: 'song.mp3', size: 10, type: 'audio/mpeg' }, new Set())).toBe(
      'Unsupported file type: audio/mpeg',
    );
    // No declared type and an unknown extension: the extension is named.
    expect(validateFile({ name: 'data.xyz', size: 10, type: '' }, new Set())).toBe(
      'Unsupported file type: .xyz',
    );
  });

  it('accepts a Word file the browser gave no type, by its extension', () => {
    expect(resolveFileType('', 'old.doc')).toBe('application/msword');
    expect(resolveFileType('application/octet-stream', 'new.DOCX')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(resolveFileType('image/png; charset=binary', 'x.png')).toBe('image/png');
    expect(resolveFileType('text/html', 'x.txt')).toBeNull();
  });

  it('requires a name and refuses a name already in the list', () => {
    expect(validateFile({ name: '   ', size: 1, type: 'text/plain' }, new Set())).toBe(
      'File name is required',
    );
    expect(validateFile(pdf('a.pdf'), new Set(['a.pdf']))).toBe('File "a.pdf" is already in the list');
  });

  it('offers the picker exactly the spec extensions', () => {
    expect(ACCEPT).toBe('.pdf,.jpg,.jpeg,.png,.txt,.doc,.docx');
  });

  it('makes ids from a timestamp plus a random string', () => {
    expect(newItemId(1700000000000)).toMatch(/^1700000000000-[a-z0-9]+$/);
    expect(newItemId(1)).not.toBe(newItemId(1));
  });

  it('accepts http(s) links only', () => {
    expect(parseUrl(' https://example.com/a.pdf ')).toEqual({ url: 'https://example.com/a.pdf' });
    expect(parseUrl('ftp://example.com/a.pdf')).toHaveProperty('error');
    expect(parseUrl('not a url')).toHaveProperty('error');
    expect(parseUrl('')).toHaveProperty('error');
  });
});

describe('queue (docs/product.md#data, #states)', () => {
  it('queues only valid files, as ready with no progress, and lists every rejection', () => {
    const { items, errors } = admitFiles(
      [
        pdf('a.pdf'),
        { name: 'b.exe', size: 1, type: 'application/x-msdownload' },
        pdf('a.pdf'), // same name twice in one drop
        pdf('huge.pdf', MAX_FILE_BYTES * 2),
      ],
      [],
    );
    expect(items.map((i) => [i.name, i.status, i.progress, i.error])).toEqual([['a.pdf', 'ready', 0, null]]);
    expect(errors).toEqual([
      'Unsupported file type: application/x-msdownload',
      'File "a.pdf" is already in the list',
      'File size exceeds 20MB limit (40.00MB)',
    ]);
    const state = queueReducer(initialQueue, { type: 'add', items, errors });
    expect(state.items).toHaveLength(1);
    expect(state.errors).toHaveLength(3);
    // The next pick sees what is listed already.
    expect(admitFiles([pdf('a.pdf')], state.items).errors).toEqual(['File "a.pdf" is already in the list']);
  });

  it('removes only ready items', () => {
    const state = withItems('ready', 'processing', 'completed', 'failed');
    let next = state;
    for (const item of state.items) next = queueReducer(next, { type: 'remove', id: item.id });
    expect(next.items.map((i) => i.status)).toEqual(['processing', 'completed', 'failed']);
  });

  it('Retry takes a failed item back to ready, clearing its error and progress', () => {
    const state = withItems('failed', 'completed');
    const failed = {
      ...state.items[0]!,
      error: 'Unsupported file type: x',
      progress: 40,
      phase: 'Analyzing',
    };
    const before: QueueState = {
      items: [failed, state.items[1]!],
      errors: [
        'Batch processing failed: offline',
        `Failed to process file "${failed.name}": Unsupported file type: x`,
      ],
    };
    const after = queueReducer(before, { type: 'retry', id: failed.id });
    expect(after.items[0]).toMatchObject({ status: 'ready', error: null, progress: 0, phase: null });
    // its message leaves the error list, so failing again does not list it twice
    expect(after.errors).toEqual(['Batch processing failed: offline']);
    // Retry means nothing for other states.
    expect(queueReducer(after, { type: 'retry', id: state.items[1]!.id }).items[1]!.status).toBe('completed');
  });

  it('Clear Completed removes completed items only; Clear All empties the error list', () => {
    const state = { ...withItems('completed', 'failed', 'ready', 'completed'), errors: ['x', 'y'] };
    const cleared = queueReducer(state, { type: 'clear-completed' });
    expect(cleared.items.map((i) => i.status)).toEqual(['failed', 'ready']);
    expect(cleared.errors).toEqual(['x', 'y']);
    expect(queueReducer(cleared, { type: 'clear-errors' }).errors).toEqual([]);
  });

  it('lists a pasted link once', () => {
    const first = admitUrl('https://example.com/a.pdf', []);
    expect(first.items[0]).toMatchObject({
      name: 'https://example.com/a.pdf',
      url: 'https://example.com/a.pdf',
      file: null,
    });
    expect(admitUrl('https://example.com/a.pdf', first.items).errors).toEqual([
      'Link "https://example.com/a.pdf" is already in the list',
    ]);
  });
});

describe('progress', () => {
  it('computes the overall progress from the file index', () => {
    expect(overallProgress(0, 4)).toBe(0);
    expect(overallProgress(1, 4)).toBe(25);
    expect(overallProgress(3, 3)).toBe(100);
    expect(overallProgress(0, 0)).toBe(0);
  });

  it('fills the first 30 % with the upload and the rest with the server stages', () => {
    expect(uploadBar(0)).toBe(0);
    expect(uploadBar(50)).toBe(15);
    expect(uploadBar(100)).toBe(30);
    expect(processingBar(0)).toBe(30);
    expect(processingBar(50)).toBe(65);
    expect(processingBar(100)).toBe(100);
    expect(processingBar(250)).toBe(100);
  });
});
