// Moving one member within a kaboodle's order (drag and drop, or the Move up / Move down buttons).

/** A copy of `list` with the element at `from` moved to index `to` (both clamped into range). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length) return next;
  const [item] = next.splice(from, 1);
  const at = Math.max(0, Math.min(next.length, to));
  next.splice(at, 0, item as T);
  return next;
}

/** "Updated 3 minutes ago" style for cards, from an ISO time. */
export function changedAgo(iso: string, now: number = Date.now()): string {
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} hour${h === 1 ? '' : 's'} ago`;
  const d = Math.round(h / 24);
  if (d < 30) return `${d} day${d === 1 ? '' : 's'} ago`;
  return new Date(iso).toLocaleDateString();
}
