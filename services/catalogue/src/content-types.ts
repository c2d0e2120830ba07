// Which stored types a browser may be handed as they are (the header itself is the platform's
// contentDisposition, written by the content-disposition library).

/** Types a browser may be handed as they are; anything else goes out as bytes to save. */
const SAFE_TYPES = new Set([
  'application/pdf',
  'text/plain',
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/html',
  'text/csv',
  'application/json',
]);

export function safeContentType(type: string): string {
  const base = type.split(';', 1)[0]!.trim().toLowerCase();
  if (!SAFE_TYPES.has(base)) return 'application/octet-stream';
  return base.startsWith('text/') ? `${base}; charset=utf-8` : base;
}

export const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
