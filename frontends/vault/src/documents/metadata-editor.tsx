// The reader's metadata: each field with the AI's confidence (provenance) and a mark on corrected
// fields; "Edit metadata" turns it into a form that PATCHes only what changed. State and the save are
// in metadata/use-metadata-editor.ts; the list and the form are their own views.
import { Button } from '@kaboodle/kit';
import type { DocumentDetail } from './document-types.ts';
import { MetadataForm } from './metadata/metadata-form.tsx';
import { MetadataList } from './metadata/metadata-list.tsx';
import { useMetadataEditor } from './metadata/use-metadata-editor.ts';

export function MetadataEditor({
  doc,
  onSaved,
}: {
  doc: DocumentDetail;
  onSaved: (doc: DocumentDetail) => void;
}) {
  const editor = useMetadataEditor(doc, onSaved);
  const corrected = new Set<string>(doc.corrected_fields ?? []);
  const { status } = editor;

  if (!editor.editing) {
    return (
      <section className="kb-meta" aria-label="Metadata">
        <div className="kb-meta__head">
          <h3>Metadata</h3>
          <Button size="sm" variant="secondary" onClick={editor.edit}>
            Edit metadata
          </Button>
        </div>
        {status && (
          <p role="status" className={`kb-meta__status kb-meta__status--${status.kind}`}>
            {status.text}
          </p>
        )}
        <MetadataList doc={doc} corrected={corrected} />
      </section>
    );
  }

  return (
    <section className="kb-meta" aria-label="Edit metadata">
      <MetadataForm
        form={editor.form}
        errors={editor.errors}
        status={status}
        corrected={corrected}
        onChange={editor.change}
        onSave={editor.save}
        onCancel={editor.cancel}
      />
    </section>
  );
}
