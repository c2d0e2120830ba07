// The Processing Hub's per-file messages (docs/product.md#messages), in one place for the runner and the
// queue.
export const uploadCancelledMessage = (name: string): string => `Upload cancelled for file "${name}"`;
export const processFailedMessage = (name: string, reason: string): string =>
  `Failed to process file "${name}": ${reason}`;
