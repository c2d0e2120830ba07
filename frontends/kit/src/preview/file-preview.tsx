// What a stored file looks like, in full: the image itself, a PDF's pages, a text file's text, or a
// document's extracted text for formats a browser cannot draw (Word). Shared by the vault's reader
// and the Media Hub. pdf.js arrives with the first PDF shown, never before.
import { lazy, Suspense, useEffect, useState } from 'react';
import './preview.css';

const PdfPages = lazy(() => import('./pdf-pages.tsx'));

export interface FilePreviewProps {
  /** Where the bytes are (same origin). */
  src: string;
  contentType: string;
  name: string;
  /** Text already extracted from the file, shown for types that cannot be drawn here. */
  text?: string | null;
}

function TextFile({ src }: { src: string }) {
  const [text, setText] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch(src, { credentials: 'include', signal: controller.signal })
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`status ${res.status}`))))
      .then(setText, (err: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Reading the text file failed', err);
        setFailed(true);
      });
    return () => controller.abort();
  }, [src]);
  if (failed) return <p className="kb-muted">The text could not be read.</p>;
  if (text === null)
    return (
      <p className="kb-muted" role="status">
        Reading…
      </p>
    );
  return (
    <pre className="kb-preview__text" tabIndex={0} data-testid="text-preview">
      {text}
    </pre>
  );
}

export function FilePreview({ src, contentType, name, text }: FilePreviewProps) {
  const type = contentType.toLowerCase();
  if (type.startsWith('image/')) {
    return (
      <img className="kb-preview__image" src={src} alt={`The whole of ${name}`} data-testid="image-preview" />
    );
  }
  if (type === 'application/pdf') {
    return (
      <Suspense
        fallback={
          <p className="kb-muted" role="status">
            Opening the PDF…
          </p>
        }
      >
        <PdfPages src={src} name={name} />
      </Suspense>
    );
  }
  if (type.startsWith('text/')) return <TextFile src={src} />;
  if (text)
    return (
      <pre className="kb-preview__text" tabIndex={0} data-testid="text-preview">
        {text}
      </pre>
    );
  return <p className="kb-muted">{name} cannot be shown here; download it to open it.</p>;
}
