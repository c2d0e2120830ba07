// The Processing Hub's per-file messages (docs/product.md#messages), in one place for the runner and the
// queue.
export const uploadCancelledMessage = (name: string): string => `Upload cancelled for file "${name}"`;
/** A pasted link is called a link, not a file (the spec's text names files). */
export const processFailedMessage = (name: string, reason: string, kind: 'file' | 'link' = 'file'): string =>
  `Failed to process ${kind} "${name}": ${reason}`;
