// Dominant object colours: node-vibrant's palette (it favours the object's saturated colours, where
// sharp's stats().dominant returns the backdrop), minus swatches that match the photo's border
// (the backdrop), merged by colour name, with each colour's share of what is left.
import sharp from 'sharp';
import { colorName, deltaE, hexToRgb, rgbToHex, rgbToLab } from './color-names.ts';
import type { NamedColor } from './inventory-vision.ts';

interface Swatch {
  hex: string;
  population: number;
}

type VibrantModule = {
  Vibrant: {
    from(src: Buffer): { getPalette(): Promise<Record<string, { hex: string; population: number } | null>> };
  };
};
let vibrant: Promise<VibrantModule> | null = null;

/** Mean colour of the outer ring of the picture and how uniform it is (Lab std-dev). */
export async function borderColor(image: Uint8Array): Promise<{ hex: string; spread: number }> {
  const size = 48;
  const { data } = await sharp(image)
    .resize(size, size, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const labs: Array<[number, number, number]> = [];
  let r = 0;
  let g = 0;
  let b = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (x > 2 && x < size - 3 && y > 2 && y < size - 3) continue;
      const i = (y * size + x) * 3;
      r += data[i]!;
      g += data[i + 1]!;
      b += data[i + 2]!;
      labs.push(rgbToLab(data[i]!, data[i + 1]!, data[i + 2]!));
    }
  }
  const n = labs.length;
  const hex = rgbToHex(r / n, g / n, b / n);
  const mean = rgbToLab(...hexToRgb(hex));
  const spread = Math.sqrt(labs.reduce((s, l) => s + deltaE(l, mean) ** 2, 0) / n);
  return { hex, spread };
}

export async function dominantColors(
  image: Uint8Array,
  max = 3,
  /** The whole photo's border, when `image` is a crop around the object (its own edges are object). */
  backdrop?: { hex: string; spread: number },
): Promise<NamedColor[]> {
  vibrant ??= import('node-vibrant/node') as unknown as Promise<VibrantModule>;
  const { Vibrant } = await vibrant;
  // Vibrant samples every pixel it is given: a 256-px copy gives the same palette far faster.
  const small = await sharp(image)
    .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .png()
    .toBuffer();
  const palette = await Vibrant.from(small).getPalette();
  let swatches: Swatch[] = Object.values(palette)
    .filter((s): s is { hex: string; population: number } => !!s && s.population > 0)
    .map((s) => ({ hex: s.hex, population: s.population }));
  const border = backdrop ?? (await borderColor(small));
  // A uniform border is a backdrop: its colour is not the object's.
  if (border.spread < (backdrop ? 20 : 12)) {
    const bg = rgbToLab(...hexToRgb(border.hex));
    const kept = swatches.filter((s) => deltaE(rgbToLab(...hexToRgb(s.hex)), bg) > 18);
    if (kept.length > 0) swatches = kept;
  }
  const byName = new Map<string, { hex: string; population: number; top: number }>();
  for (const s of swatches) {
    const name = colorName(s.hex);
    const e = byName.get(name);
    if (!e) byName.set(name, { hex: s.hex, population: s.population, top: s.population });
    else {
      e.population += s.population;
      if (s.population > e.top) {
        e.top = s.population;
        e.hex = s.hex;
      }
    }
  }
  const total = [...byName.values()].reduce((s, e) => s + e.population, 0) || 1;
  return [...byName.entries()]
    .map(([name, e]) => ({
      name,
      hex: e.hex.toLowerCase(),
      share: Math.round((e.population / total) * 100) / 100,
    }))
    .sort((a, b) => b.share - a.share)
    .filter((c, i) => i === 0 || c.share >= 0.08)
    .slice(0, max);
}

/**
 * Where the object's colour is read: the box of the detector's main object (the most confident,
 * largest one; a person holding the item is not the item) with a small margin, else the middle of
 * the photo. Undefined when the box is most of the photo anyway.
 */
export function objectRegion(
  objects: ReadonlyArray<{
    label: string;
    score: number;
    box?: { x: number; y: number; width: number; height: number };
  }>,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } | undefined {
  const area = width * height;
  const main = objects
    .filter((o) => o.box && o.score >= 0.3 && o.label !== 'person')
    .map((o) => ({ box: o.box!, weight: o.score * Math.sqrt((o.box!.width * o.box!.height) / area) }))
    .filter((o) => (o.box.width * o.box.height) / area >= 0.03)
    .sort((a, b) => b.weight - a.weight)[0]?.box;
  const box = main ?? { x: width * 0.2, y: height * 0.2, width: width * 0.6, height: height * 0.6 };
  if ((box.width * box.height) / area > 0.85) return undefined;
  const mx = box.width * 0.05;
  const my = box.height * 0.05;
  const left = Math.max(0, Math.floor(box.x - mx));
  const top = Math.max(0, Math.floor(box.y - my));
  const right = Math.min(width, Math.ceil(box.x + box.width + mx));
  const bottom = Math.min(height, Math.ceil(box.y + box.height + my));
  if (right - left < 8 || bottom - top < 8) return undefined;
  return { left, top, width: right - left, height: bottom - top };
}
