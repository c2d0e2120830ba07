// The file rules in the browser (docs/product.md#validation, #limits), with the product's texts word for
// word. The limit and the allowed types are the ingestion service's own, carried by the API document
// (FILE_RULES, generated into @kaboodle/kit), so the two can never disagree; the service checks them again,
// and the bytes.
import { FILE_RULES } from '@kaboodle/kit';

export const MAX_FILE_BYTES: number = FILE_RULES.maxBytes;

/** Allowed types: MIME type → extensions (PDF, JPEG, PNG, plain text, legacy Word, modern Word). */
export const ALLOWED_TYPES: Readonly<Record<string, readonly string[]>> = FILE_RULES.types;

/** The picker's accept attribute: the allowed extensions. */
export const ACCEPT = Object.values(ALLOWED_TYPES)
  .flat()
  .map((ext) => `.${ext}`)
  .join(',');

const BY_EXTENSION = new Map(
  Object.entries(ALLOWED_TYPES).flatMap(([mime, exts]) => exts.map((e) => [e, mime] as const)),
);
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

const MB = 1024 * 1024;
export const sizeExceededMessage = (bytes: number): string =>
  `File size exceeds ${MAX_FILE_BYTES / MB}MB limit (${(bytes / MB).toFixed(2)}MB)`;
export const unsupportedTypeMessage = (type: string): string => `Unsupported file type: ${type}`;
export const FILE_NAME_REQUIRED = 'File name is required';
export const alreadyListedMessage = (name: string): string => `File "${name}" is already in the list`;

export const extensionOf = (name: string): string => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';

/**
 * The MIME type a file counts as: its declared type when allowed, else (browsers leave the type
 * empty for some files, e.g. .doc on Linux) the type its extension names. Null when not allowed.
 */
export function resolveFileType(declared: string, name: string): string | null {
  const mime = declared.split(';')[0]!.trim().toLowerCase();
  if (ALLOWED_TYPES[mime]) return mime;
  if (!GENERIC.has(mime)) return null;
  return BY_EXTENSION.get(extensionOf(name)) ?? null;
}

export interface CandidateFile {
  name: string;
  size: number;
  type: string;
}

/**
 * The first rule a file breaks (the order of docs/product.md#validation: size, type, name, then already
 * listed), or null.
 */
export function validateFile(file: CandidateFile, listedNames: ReadonlySet<string>): string | null {
  if (file.size > MAX_FILE_BYTES) return sizeExceededMessage(file.size);
  if (resolveFileType(file.type, file.name) === null) {
    const ext = extensionOf(file.name);
    return unsupportedTypeMessage(file.type || (ext ? `.${ext}` : 'unknown'));
  }
  if (file.name.trim() === '') return FILE_NAME_REQUIRED;
  if (listedNames.has(file.name)) return alreadyListedMessage(file.name);
  return null;
}

export const isImageType = (mime: string | null): boolean => mime === 'image/jpeg' || mime === 'image/png';

/** docs/product.md#data: a queued item's id is a timestamp plus a random string. */
export function newItemId(now: number = Date.now()): string {
  return `${now}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A pasted link: http or https only (the server refuses private addresses itself). */
export function parseUrl(raw: string): { url: string } | { error: string } {
  const text = raw.trim();
  if (text === '') return { error: 'Paste a link to a file or a web page' };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { error: `"${text}" is not a valid link: use an http:// or https:// address` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { error: `"${text}" is not a valid link: use an http:// or https:// address` };
  }
  return { url: parsed.href };
}
