// The Content-Disposition every service sends for a stored file: jshttp's `content-disposition` (the
// one Express's res.attachment uses) writes the header; we only choose the ASCII fallback name.
import { create } from 'content-disposition';

/**
 * A header no file name can break: the library quotes and RFC 8187-encodes the exact name as
 * `filename*`; the plain `filename` fallback has quotes, slashes, control and non-ASCII characters
 * replaced by `_` (the library's own fallback would use `?`, which Windows refuses in a file name).
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const name = fileName.trim() || 'download';
  const fallback =
    name
      // eslint-disable-next-line no-control-regex -- control characters must never reach a header
      .replace(/[\u0000-\u001f\u007f"\\/%]/g, '_')
      .replace(/[^\x20-\x7e]/g, '_')
      .slice(0, 150) || 'download';
  return create(name, { type: kind, fallback });
}
