// The Media Hub's preview: the file itself in a dialog (the whole picture, a PDF's pages, a text
// file's text), or for Word files the text Kaboodle extracted from them. A failed text load says so.
import { useEffect, useState } from 'react';
import { api, Banner, Dialog, FilePreview } from '@kaboodle/kit';
import { fileContentPath, reasonOf, type DashboardApi, type ServerFile } from '../lib/dashboard-api.ts';

/** Types the browser draws itself; the others show the document's extracted text. */
const drawable = (type: string) =>
  type.startsWith('image/') || type === 'application/pdf' || type.startsWith('text/');

export const textLoadFailed = (reason: string) => `The extracted text could not be loaded: ${reason}`;

/** The extracted text of a file the browser cannot draw (null while loading), or why it failed. */
export function useExtractedText(
  calls: DashboardApi,
  file: ServerFile | null,
): { text: string | null; error: string | null } {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const documentId =
    file && !drawable(file.content_type) && file.result?.type === 'document' ? file.result.id : null;
  useEffect(() => {
    setText(null);
    setError(null);
    if (!documentId) return;
    const controller = new AbortController();
    calls
      .documentText(documentId, controller.signal)
      .then(setText)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setError(textLoadFailed(reasonOf(err)));
      });
    return () => controller.abort();
  }, [calls, documentId]);
  return { text, error };
}

export interface MediaPreviewProps {
  calls: DashboardApi;
  file: ServerFile | null;
  onClose: () => void;
}

export function MediaPreview({ calls, file, onClose }: MediaPreviewProps) {
  const { text, error } = useExtractedText(calls, file);
  const waiting = file !== null && !drawable(file.content_type) && file.result?.type === 'document';
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
          {error && <Banner tone="error">{error}</Banner>}
          <FilePreview
            src={api.url(fileContentPath(file.id))}
            contentType={file.content_type}
            name={file.name}
            text={text}
          />
          {waiting && text === null && error === null && (
            <p className="kbd-muted" role="status">
              Loading the text…
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
