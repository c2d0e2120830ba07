// The product's file rules (docs/product.md#validation, #limits), word for word: the same texts the
// Processing Hub shows.
export const MAX_FILE_BYTES = 20 * 1024 * 1024; // 20971520

/** Allowed types: MIME type → extensions. PDF, JPEG, PNG, plain text, legacy Word, modern Word. */
export const ALLOWED_TYPES: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'text/plain': ['txt'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
};

const BY_EXTENSION = new Map(
  Object.entries(ALLOWED_TYPES).flatMap(([mime, exts]) => exts.map((e) => [e, mime])),
);
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export const sizeExceededMessage = (bytes: number): string =>
  `File size exceeds 20MB limit (${(bytes / (1024 * 1024)).toFixed(2)}MB)`;
export const unsupportedTypeMessage = (type: string): string => `Unsupported file type: ${type}`;
export const FILE_NAME_REQUIRED = 'File name is required';

/**
 * The content type to record: the declared MIME type when it is an allowed one, else (for generic
 * declarations like application/octet-stream) the one the extension names. Null when not allowed.
 * The bytes themselves are checked by the processing service (a PNG named .pdf fails with a reason).
 */
export function resolveContentType(declared: string, fileName: string): string | null {
  const mime = declared.split(';')[0]!.trim().toLowerCase();
  if (ALLOWED_TYPES[mime]) return mime;
  if (!GENERIC.has(mime)) return null;
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION.get(ext)) ?? null;
}

/** A display-safe file name: no folders, no control characters, at most 255 characters. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const printable = base.replace(/[\u0000-\u001f\u007f]/g, '');
  return printable.trim().slice(0, 255);
}

/** Web pages are allowed only from pasted URLs (stored as text/html; processing keeps the main article). */
export const HTML_TYPE = 'text/html';

const startsWith = (head: Uint8Array, bytes: number[]): boolean =>
  head.length >= bytes.length && bytes.every((b, i) => head[i] === b);

/**
 * The type the first bytes show, for serving a stored file back (never the uploader's claim alone).
 * Office zips are DOCX only when the recorded type says so; anything binary and unknown is
 * application/octet-stream, so a browser never renders it as something it is not.
 */
export function sniffContentType(head: Uint8Array, recorded: string): string {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    return recorded === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
      ? recorded
      : 'application/octet-stream';
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return recorded === 'application/msword' ? recorded : 'application/octet-stream';
  }
  if (head.includes(0)) return 'application/octet-stream';
  const text = Buffer.from(head.subarray(0, 1024))
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  // HTML is served as a page only when it came as one (a pasted URL); an uploaded .txt stays text
  if (/^<(!doctype html|html|head|body)[\s>]/.test(text))
    return recorded === HTML_TYPE ? HTML_TYPE : 'text/plain';
  return 'text/plain';
}

/** How many leading bytes sniffing looks at. */
export const SNIFF_BYTES = 4096;
