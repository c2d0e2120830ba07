// Inventory vision through an OpenAI-compatible vision chat model (image as a data URL, JSON
// output). What a model is poor at and local code does exactly (barcodes, their lookups, pixel
// colours) comes from the offline baseline when one is given; the model names and describes.
import type OpenAI from 'openai';
import { clamp01, excerpt, ProvenanceSource } from '../enrich/document-enricher.ts';
import { reconcileTags, round2 } from '../enrich/tag-vocabulary.ts';
import { num, parseJsonObject, str, strList } from '../providers/openai-client.ts';
import { findDimensions } from './inventory-rules.ts';
import {
  INVENTORY_CATEGORIES,
  type InventoryCategory,
  type InventoryEnrichment,
  type InventoryVision,
  type VisionInput,
  type VisionOptions,
} from './inventory-vision.ts';

export interface OpenAiVisionOptions {
  client: OpenAI;
  model: string;
  /** Offline analysis whose barcodes, colours and objects are kept (and sent as hints). */
  baseline?: InventoryVision;
}

const SYSTEM = `You catalogue handmade goods from photos. Answer with ONE JSON object:
{"name": string (short product name), "description": string (2 sentences), "category": one of ${INVENTORY_CATEGORIES.map((c) => `"${c}"`).join(', ')},
 "material": string ("" if it cannot be told), "colors": [{"name": string, "hex": "#rrggbb"}],
 "objects": [{"label": string, "score": number}], "dimensions": string (only if stated on a label or by the user, else ""),
 "origin": string ("" unless stated), "hashtags": [{"tag": string, "relevancy": number}],
 "confidence": {field name: number in [0,1]}}`;

export function createOpenAiVision(options: OpenAiVisionOptions): InventoryVision {
  return {
    provider: 'openai',
    async analyze(input: VisionInput, opts: VisionOptions = {}): Promise<InventoryEnrichment> {
      const baseline = options.baseline ? await options.baseline.analyze(input, opts) : null;
      const mime = input.bytes[0] === 0x89 ? 'image/png' : 'image/jpeg';
      const dataUrl = `data:${mime};base64,${Buffer.from(input.bytes).toString('base64')}`;
      const hints = baseline
        ? {
            barcodes: baseline.barcodes.map((b) => ({
              format: b.format,
              value: b.value,
              product: b.lookup?.productName ?? '',
            })),
            measured_colors: baseline.colors,
          }
        : {};
      const text = [
        input.instructions?.trim() ? `User instructions (follow them):\n${input.instructions}` : '',
        input.ocrText?.trim() ? `Text read from the photo: ${input.ocrText.trim().slice(0, 2000)}` : '',
        input.fileName ? `File name: ${input.fileName}` : '',
        baseline ? `Measured locally: ${JSON.stringify(hints)}` : '',
      ]
        .filter(Boolean)
        .join('\n\n');
      const completion = await options.client.chat.completions.create(
        {
          model: options.model,
          response_format: { type: 'json_object' },
          temperature: 0.2,
          messages: [
            { role: 'system', content: SYSTEM },
            {
              role: 'user',
              content: [
                { type: 'text', text: text || 'Catalogue this item.' },
                { type: 'image_url', image_url: { url: dataUrl } },
              ],
            },
          ],
        },
        opts.signal ? { signal: opts.signal } : {},
      );
      const json = parseJsonObject(completion.choices[0]?.message?.content);
      const conf = (json.confidence && typeof json.confidence === 'object' ? json.confidence : {}) as Record<
        string,
        unknown
      >;
      const p = (field: string, evidence: string) => ({
        confidence: round2(clamp01(num(conf[field]) ?? 0.75)),
        source: ProvenanceSource.REMOTE_MODEL,
        method: options.model,
        evidence: excerpt(evidence),
      });
      const provenance: InventoryEnrichment['provenance'] = { ...(baseline?.provenance ?? {}) };
      const rawCategory = str(json.category).toLowerCase().replace(/[\s-]/g, '');
      const category: InventoryCategory =
        INVENTORY_CATEGORIES.find((c) => c.toLowerCase().replace(/\s/g, '') === rawCategory) ??
        baseline?.category ??
        'Other';
      provenance.category = p('category', category);
      const name = str(json.name) || baseline?.name || '';
      if (str(json.name)) provenance.name = p('name', name);
      const description = str(json.description) || baseline?.description || '';
      if (str(json.description)) provenance.description = p('description', description);
      const material = str(json.material) || baseline?.material || '';
      if (str(json.material)) provenance.material = p('material', material);
      const colors = baseline?.colors.length
        ? baseline.colors
        : (Array.isArray(json.colors) ? json.colors : [])
            .map((c) => c as Record<string, unknown>)
            .filter((c) => /^#[0-9a-f]{6}$/i.test(str(c.hex)))
            .map((c, i, all) => ({
              name: str(c.name) || str(c.hex),
              hex: str(c.hex).toLowerCase(),
              share: round2(1 / all.length),
            }));
      const objects = baseline?.objects.length
        ? baseline.objects
        : (Array.isArray(json.objects) ? json.objects : [])
            .map((o) => o as Record<string, unknown>)
            .filter((o) => str(o.label))
            .map((o) => ({ label: str(o.label), score: round2(clamp01(num(o.score) ?? 0.5)) }));
      const dimensions = findDimensions(str(json.dimensions)) ?? baseline?.dimensions;
      const origin = str(json.origin) || baseline?.originSource || '';
      const tags = (Array.isArray(json.hashtags) ? json.hashtags : []).map((t) =>
        typeof t === 'string'
          ? { tag: t, relevancy: 0.7 }
          : {
              tag: str((t as Record<string, unknown>).tag),
              relevancy: clamp01(num((t as Record<string, unknown>).relevancy) ?? 0.7),
            },
      );
      const hashtags = reconcileTags(
        tags.length ? tags : strList(json.tags).map((t) => ({ tag: t, relevancy: 0.7 })),
        [],
        { max: 8, minRelevancy: 0 },
      ).map(({ tag, relevancy }) => ({ tag, relevancy }));
      if (hashtags.length) provenance.hashtags = p('hashtags', hashtags.map((h) => h.tag).join(', '));
      return {
        // the photo's vector and size are measured locally, never by the chat model
        ...(baseline?.image ? { image: baseline.image } : {}),
        name,
        description,
        category,
        material,
        colors,
        ...(dimensions ? { dimensions } : {}),
        objects,
        barcodes: baseline?.barcodes ?? [],
        originSource: origin,
        ...(baseline?.retailPrice ? { retailPrice: baseline.retailPrice } : {}),
        ...(baseline?.importCost ? { importCost: baseline.importCost } : {}),
        hashtags: hashtags.length ? hashtags : (baseline?.hashtags ?? []),
        provenance,
      };
    },
    close: async () => {
      await options.baseline?.close?.();
    },
  };
}
