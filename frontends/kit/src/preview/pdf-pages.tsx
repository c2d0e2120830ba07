// A PDF shown page by page (the first ones at once, more on request), each page a canvas labelled
// "Page n of N" for assistive technology; a PDF that cannot be drawn says so and keeps its link.
import { useEffect, useRef, useState } from 'react';
import { Button } from '../components/button.tsx';
import { openPdf, type OpenedPdf } from './pdf-render.ts';

export const FIRST_PAGES = 2;

export interface PdfPagesProps {
  src: string;
  /** What the PDF is, for the page labels ("Page 1 of 3 of <name>"). */
  name: string;
  /** Widest a page is drawn, in CSS pixels (it also never exceeds its container). */
  maxWidth?: number;
}

function PdfPage({ pdf, n, name, maxWidth }: { pdf: OpenedPdf; n: number; name: string; maxWidth: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const controller = new AbortController();
    const width = Math.min(maxWidth, el.parentElement?.clientWidth || maxWidth);
    pdf.draw(n, el, width, controller.signal).then(
      () => setState('drawn'),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        console.warn(`Drawing page ${n} of the PDF failed`, err);
        setState('failed');
      },
    );
    return () => controller.abort();
  }, [pdf, n, maxWidth]);
  return (
    <figure className="kb-pdf__page" data-state={state}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Page ${n} of ${pdf.pageCount} of ${name}`}
        data-testid="pdf-page"
      />
      {state === 'failed' && <figcaption className="kb-muted">Page {n} could not be drawn.</figcaption>}
    </figure>
  );
}

export default function PdfPages({ src, name, maxWidth = 820 }: PdfPagesProps) {
  const [pdf, setPdf] = useState<OpenedPdf | null>(null);
  const [failed, setFailed] = useState(false);
  const [shown, setShown] = useState(FIRST_PAGES);
  useEffect(() => {
    const controller = new AbortController();
    let opened: OpenedPdf | null = null;
    setPdf(null);
    setFailed(false);
    setShown(FIRST_PAGES);
    openPdf(src, controller.signal).then(
      (p) => {
        opened = p;
        if (controller.signal.aborted) p.close();
        else setPdf(p);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Opening the PDF failed', err);
        setFailed(true);
      },
    );
    return () => {
      controller.abort();
      opened?.close();
    };
  }, [src]);

  if (failed) return <p className="kb-muted">This PDF could not be shown here.</p>;
  if (!pdf)
    return (
      <p className="kb-muted" role="status">
        Opening the PDF…
      </p>
    );
  const count = Math.min(shown, pdf.pageCount);
  return (
    <div className="kb-pdf" data-testid="pdf-pages">
      {Array.from({ length: count }, (_, i) => (
        <PdfPage key={i + 1} pdf={pdf} n={i + 1} name={name} maxWidth={maxWidth} />
      ))}
      {pdf.pageCount > count && (
        <Button variant="ghost" size="sm" onClick={() => setShown((s) => s + 5)}>
          Show more pages ({pdf.pageCount - count} more)
        </Button>
      )}
    </div>
  );
}
