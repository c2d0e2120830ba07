// Object recognition with @vladmandic/human's COCO detector (CenterNet, weights inside the npm
// package) on tfjs' WASM backend. Human loads models with fetch(), so file:// URLs are served from
// disk here; nothing leaves the machine. One detector per thread, loaded on first use.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Detection } from './inventory-vision.ts';

export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface CocoDetector {
  detect(image: RgbImage): Promise<Detection[]>;
}

interface HumanTensor {
  dispose(): void;
}
interface HumanInstance {
  load(): Promise<void>;
  detect(
    input: HumanTensor,
  ): Promise<{ object: Array<{ label: string; score: number; box: [number, number, number, number] }> }>;
  tf: { tensor3d(data: Uint8Array, shape: [number, number, number], dtype: string): HumanTensor };
}

let shared: Promise<CocoDetector> | null = null;

/** Serve file:// URLs from disk; everything else goes to the real fetch. */
function installFileFetch(): void {
  const g = globalThis as { fetch: typeof fetch; __kaboodleFileFetch?: boolean };
  if (g.__kaboodleFileFetch) return;
  const original = g.fetch;
  g.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('file://')) {
      const body = await readFile(new URL(url));
      return new Response(body, {
        status: 200,
        headers: { 'content-type': url.endsWith('.json') ? 'application/json' : 'application/octet-stream' },
      });
    }
    return original(input, init);
  }) as typeof fetch;
  g.__kaboodleFileFetch = true;
}

export function loadCocoDetector(): Promise<CocoDetector> {
  shared ??= (async () => {
    installFileFetch();
    const require = createRequire(import.meta.url);
    // The package's exports map hides the WASM build; its file sits next to the Node build.
    const humanDir = path.dirname(require.resolve('@vladmandic/human'));
    const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), path.sep);
    const modelsDir = path.join(humanDir, '..', 'models', path.sep);
    const mod = require(path.join(humanDir, 'human.node-wasm.js')) as {
      Human?: new (c: unknown) => HumanInstance;
      default?: new (c: unknown) => HumanInstance;
    };
    const Human = mod.Human ?? mod.default;
    if (!Human) throw new Error('@vladmandic/human did not export Human');
    const human = new Human({
      backend: 'wasm',
      wasmPath: pathToFileURL(wasmDir).href,
      modelBasePath: pathToFileURL(modelsDir).href,
      debug: false,
      cacheModels: false,
      warmup: 'none',
      filter: { enabled: false },
      face: { enabled: false },
      body: { enabled: false },
      hand: { enabled: false },
      gesture: { enabled: false },
      segmentation: { enabled: false },
      object: {
        enabled: true,
        modelPath: 'centernet.json',
        minConfidence: 0.2,
        iouThreshold: 0.4,
        maxDetected: 10,
      },
    });
    await human.load();
    return {
      async detect(image: RgbImage): Promise<Detection[]> {
        const tensor = human.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
        try {
          const result = await human.detect(tensor);
          return result.object
            .map((o) => ({
              label: o.label,
              score: Math.round(o.score * 100) / 100,
              box: { x: o.box[0], y: o.box[1], width: o.box[2], height: o.box[3] },
            }))
            .sort((a, b) => b.score - a.score);
        } finally {
          tensor.dispose();
        }
      },
    };
  })().catch((err: unknown) => {
    shared = null;
    throw new Error(`loading the object detector: ${(err as Error).message}`, { cause: err });
  });
  return shared;
}
