// The editable metadata (contracts: PATCH /api/documents/:id) as form text, its validation and
// the patch holding only what changed.
import type { DocumentPatch } from './documents-api.ts';
import { TEXT_FIELDS, type DocumentField, type Hashtag, type VaultDocument } from './document-types.ts';

export type EditableField = DocumentField;

/** How each field is shown; a Record, so a field added to the API must be given a label here. */
const FIELD_FORMS: Record<EditableField, { label: string; multiline?: boolean; hint?: string }> = {
  title: { label: 'Title' },
  author: { label: 'Author' },
  category: { label: 'Category' },
  field: { label: 'Field' },
  publication_year: { label: 'Year' },
  journal_publisher: { label: 'Journal/Publisher' },
  summary: { label: 'Summary', multiline: true },
  thesis: { label: 'Thesis', multiline: true },
  issue: { label: 'Issue', multiline: true },
  influenced_by: { label: 'Influences', hint: 'Separate names with commas' },
  hashtags: { label: 'Tags', hint: 'Separate tags with commas' },
};

/** The form's fields, in the order shown. */
export const EDITABLE_FIELDS: { key: EditableField; label: string; multiline?: boolean; hint?: string }[] = (
  Object.keys(FIELD_FORMS) as EditableField[]
).map((key) => ({ key, ...FIELD_FORMS[key] }));

export type MetadataForm = Record<EditableField, string>;

export const MAX_SHORT = 500;
export const MAX_LONG = 10_000;

export function formFrom(doc: VaultDocument): MetadataForm {
  return {
    title: doc.title,
    author: doc.author,
    category: doc.category,
    field: doc.field,
    publication_year: doc.publication_year == null ? '' : String(doc.publication_year),
    summary: doc.summary,
    thesis: doc.thesis,
    issue: doc.issue,
    journal_publisher: doc.journal_publisher,
    influenced_by: doc.influenced_by.join(', '),
    hashtags: doc.hashtags.map((h) => h.tag.replace(/^#/, '')).join(', '),
  };
}

const splitList = (text: string) => [
  ...new Set(
    text
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/** Problems per field, in the words a person reads next to the field. */
export function validateForm(form: MetadataForm, now = new Date()): Partial<Record<EditableField, string>> {
  const errors: Partial<Record<EditableField, string>> = {};
  if (form.title.trim() === '') errors.title = 'Title is required';
  for (const f of EDITABLE_FIELDS) {
    const max = f.multiline
      ? MAX_LONG
      : f.key === 'influenced_by' || f.key === 'hashtags'
        ? MAX_LONG
        : MAX_SHORT;
    if (form[f.key].length > max) errors[f.key] = `${f.label} is too long (max ${max} characters)`;
  }
  const year = form.publication_year.trim();
  if (year !== '') {
    const n = Number(year);
    if (!/^-?\d{1,4}$/.test(year) || !Number.isInteger(n))
      errors.publication_year = 'Year must be a whole number, e.g. 1998';
    else if (n > now.getFullYear() + 1)
      errors.publication_year = `Year cannot be after ${now.getFullYear() + 1}`;
  }
  if (splitList(form.hashtags).some((t) => t.length > 100))
    errors.hashtags = 'Each tag must be at most 100 characters';
  return errors;
}

/** Only the fields whose value changed; tags keep their relevancy, new ones start at 1. */
export function patchFrom(doc: VaultDocument, form: MetadataForm): DocumentPatch {
  const before = formFrom(doc);
  const patch: DocumentPatch = {};
  for (const key of TEXT_FIELDS) {
    if (form[key].trim() !== before[key].trim()) patch[key] = form[key].trim();
  }
  if (form.publication_year.trim() !== before.publication_year) {
    patch.publication_year =
      form.publication_year.trim() === '' ? null : Number(form.publication_year.trim());
  }
  const influences = splitList(form.influenced_by);
  if (influences.join('\u0000') !== doc.influenced_by.join('\u0000')) patch.influenced_by = influences;
  const tags = splitList(form.hashtags.replace(/#/g, ''));
  const oldTags = doc.hashtags.map((h) => h.tag.replace(/^#/, ''));
  if (tags.join('\u0000') !== oldTags.join('\u0000')) {
    const relevancy = new Map(doc.hashtags.map((h) => [h.tag.replace(/^#/, '').toLowerCase(), h.relevancy]));
    patch.hashtags = tags.map((tag): Hashtag => ({ tag, relevancy: relevancy.get(tag.toLowerCase()) ?? 1 }));
  }
  return patch;
}
