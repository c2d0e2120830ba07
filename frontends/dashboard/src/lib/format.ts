// Display formats shared by the dashboard's screens: sizes like "2.4GB", percentages, relative times
// and the processing stages' names.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Human-readable bytes in the dashboard's style ("2.4GB", "12KB", "0B"): one decimal, ".0" dropped. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)}B`;
  const text = value.toFixed(1).replace(/\.0$/, '');
  // 1023.96 KB rounds to "1024KB": say "1MB" instead.
  if (text === '1024' && unit < UNITS.length - 1) return `1${UNITS[unit + 1]}`;
  return `${text}${UNITS[unit]}`;
}

/** A share in [0, 1] as a whole percent ("98%"), or "—" when there is nothing to measure yet. */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  return `${Math.round(Math.max(0, Math.min(1, share)) * 100)}%`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The ingestion service's stage names (file.status), as a person reads them. */
export const STAGE_LABELS: Readonly<Record<string, string>> = {
  queued: 'Queued',
  uploaded: 'Queued for processing',
  processing: 'Processing',
  extracting_text: 'Extracting text',
  analyzing: 'Analyzing',
  embedding: 'Embedding',
  storing: 'Storing',
  done: 'Done',
};

export function stageLabel(stage: string | null | undefined): string {
  if (!stage) return 'Processing';
  return STAGE_LABELS[stage] ?? stage.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

/** Short type label for a MIME type: "PDF", "DOCX", "PNG", "Text"... */
export function typeLabel(contentType: string | null | undefined, name = ''): string {
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const known: Record<string, string> = {
    'application/pdf': 'PDF',
    'image/jpeg': 'JPEG',
    'image/png': 'PNG',
    'text/plain': 'Text',
    'text/html': 'Web page',
    'application/msword': 'DOC',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  };
  if (known[mime]) return known[mime];
  const ext = /\.([a-z0-9]{1,8})$/i.exec(name)?.[1];
  if (ext) return ext.toUpperCase();
  return mime || 'File';
}
