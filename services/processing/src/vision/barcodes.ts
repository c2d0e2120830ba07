// Barcodes and QR codes with zxing-wasm. The WASM binary is read from the package (by default the
// library fetches it from a CDN, which fails offline); the module is prepared once per thread.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import type * as ZxingModule from 'zxing-wasm/reader';

type ZxingReader = typeof ZxingModule;

let reader: Promise<ZxingReader> | null = null;

function loadReader(): Promise<ZxingReader> {
  reader ??= (async () => {
    const zxing = await import('zxing-wasm/reader');
    const require = createRequire(import.meta.url);
    const wasmBinary = await readFile(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    await zxing.prepareZXingModule({
      overrides: {
        wasmBinary: wasmBinary.buffer.slice(
          wasmBinary.byteOffset,
          wasmBinary.byteOffset + wasmBinary.byteLength,
        ),
      },
      fireImmediately: true,
    });
    return zxing;
  })().catch((err: unknown) => {
    reader = null;
    throw new Error(`loading the barcode reader: ${(err as Error).message}`, { cause: err });
  });
  return reader;
}

export interface FoundBarcode {
  /** zxing's name: `QRCode`, `EAN13`, `Code128`... */
  format: string;
  value: string;
}

/** Every readable code in an image file's bytes (JPEG/PNG), deduplicated, in reading order. */
export async function readBarcodes(image: Uint8Array): Promise<FoundBarcode[]> {
  const zxing = await loadReader();
  const results = await zxing.readBarcodes(image, { tryHarder: true, maxNumberOfSymbols: 8 });
  const seen = new Set<string>();
  const out: FoundBarcode[] = [];
  for (const r of results) {
    if (!r.isValid || !r.text) continue;
    const key = `${r.format}:${r.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ format: r.format, value: r.text });
  }
  return out;
}
