// The Media Hub's preview: the file itself in a dialog (the whole picture, a PDF's pages, a text
// file's text), or for Word files the text Kaboodle extracted from them.
import { useEffect, useState } from 'react';
import { api, Dialog, FilePreview } from '@kaboodle/kit';
import { fileContentPath, type ServerFile } from '../lib/dashboard-api.ts';

/** Types the browser draws itself; the others show the document's extracted text. */
const drawable = (type: string) =>
  type.startsWith('image/') || type === 'application/pdf' || type.startsWith('text/');

function useExtractedText(file: ServerFile | null): string | null {
  const [text, setText] = useState<string | null>(null);
  const documentId =
    file && !drawable(file.content_type) && file.result?.type === 'document' ? file.result.id : null;
  useEffect(() => {
    setText(null);
    if (!documentId) return;
    const controller = new AbortController();
    api
      .get<{ text?: unknown }>(`/api/documents/${encodeURIComponent(documentId)}`, {
        signal: controller.signal,
      })
      .then((doc) => setText(typeof doc.text === 'string' ? doc.text : ''))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) console.warn('Loading the extracted text failed', err);
      });
    return () => controller.abort();
  }, [documentId]);
  return text;
}

export function MediaPreview({ file, onClose }: { file: ServerFile | null; onClose: () => void }) {
  const text = useExtractedText(file);
  return (
    <Dialog
      open={file !== null}
      onClose={onClose}
      title={file?.name ?? ''}
      maxWidth={900}
      className="kbd-preview"
    >
      {file && (
        <div className="kbd-preview__body" data-testid="media-preview">
          <FilePreview
            src={api.url(fileContentPath(file.id))}
            contentType={file.content_type}
            name={file.name}
            text={text}
          />
          {!drawable(file.content_type) && file.result?.type === 'document' && text === null && (
            <p className="kbd-muted" role="status">
              Loading the text…
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
