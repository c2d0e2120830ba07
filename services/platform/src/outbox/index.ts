export { OUTBOX_MIGRATIONS, createOutbox, defaultOutboxBackoffMs } from './outbox.ts';
export type { Outbox, OutboxLogger, OutboxOptions } from './outbox.ts';
