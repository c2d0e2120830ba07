// A Content-Disposition that no file name can break: an ASCII fallback (quotes, backslashes, control
// and non-ASCII characters replaced) plus the exact name as RFC 5987 `filename*=UTF-8''…`.

export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const name = fileName.trim() || 'download';
  const fallback =
    name
      // eslint-disable-next-line no-control-regex -- control characters must never reach a header
      .replace(/[\u0000-\u001f\u007f"\\/]/g, '_')
      .replace(/[^\x20-\x7e]/g, '_')
      .slice(0, 150) || 'download';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

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
