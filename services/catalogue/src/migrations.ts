import type { Migration } from '@kaboodle/platform';

// Never edit a shipped migration: add the next one.
export const migrations: Migration[] = [];
