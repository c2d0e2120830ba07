// Test documents for the vault's unit tests.
import type { VaultDocument } from './document-types.ts';

export function doc(id: string, fields: Partial<VaultDocument> = {}): VaultDocument {
  return {
    id,
    title: '',
    author: '',
    category: '',
    field: '',
    publication_year: null,
    summary: '',
    thesis: '',
    issue: '',
    journal_publisher: '',
    influenced_by: [],
    hashtags: [],
    ...fields,
  };
}
