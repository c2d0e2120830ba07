// The product's file rules (spec §5, §9), word for word: the same texts the Processing Hub shows.
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
