// PDF pages drawn in the browser with pdf.js (pdfjs-dist), loaded only when a PDF is previewed. The
// product's pages refuse framed PDFs (their CSP, and the sandbox its file answers carry), so pages are
// drawn onto canvases instead: same-origin fetch, a bundled worker, no WebAssembly (the CSP does not
// allow it), fonts the PDF does not embed taken from the system.
import type * as PdfJs from 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';

let pdfjs: Promise<typeof PdfJs> | null = null;

function loadPdfJs(): Promise<typeof PdfJs> {
  pdfjs ??= import('pdfjs-dist').then((lib) => {
    lib.GlobalWorkerOptions.workerPort = new Worker(
      new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url),
      { type: 'module' },
    );
    return lib;
  });
  return pdfjs;
}

export interface OpenedPdf {
  pageCount: number;
  /** Draws page n (from 1) onto the canvas, at most `cssWidth` CSS pixels wide. */
  draw(n: number, canvas: HTMLCanvasElement, cssWidth: number, signal: AbortSignal): Promise<void>;
  close(): void;
}

export async function openPdf(url: string, signal: AbortSignal): Promise<OpenedPdf> {
  const lib = await loadPdfJs();
  const task = lib.getDocument({
    url,
    withCredentials: true,
    useWasm: false,
    // the file answer is small and whole: no range requests
    disableRange: true,
    disableStream: true,
  });
  signal.addEventListener('abort', () => void task.destroy(), { once: true });
  const doc: PDFDocumentProxy = await task.promise;
  return {
    pageCount: doc.numPages,
    async draw(n, canvas, cssWidth, drawSignal) {
      const page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const scale = Math.min(2.5, Math.max(0.2, cssWidth / base.width));
      const ratio = Math.min(2, window.devicePixelRatio || 1);
      const viewport = page.getViewport({ scale: scale * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
      canvas.style.aspectRatio = `${viewport.width} / ${viewport.height}`;
      const render = page.render({ canvas, viewport });
      drawSignal.addEventListener('abort', () => render.cancel(), { once: true });
      await render.promise;
    },
    close: () => void task.destroy(),
  };
}
