// The object's colours from a foreground mask: a pixel is backdrop when it looks like a fair share
// of the photo's outer ring (a wall, a table, the sky, a floor round the object), or when it is
// joined to the photo's edge by a smooth path (a shadow fading into a white backdrop, a lit wall:
// backdrop-distance.ts). What is left counts towards the colour names it has, the middle of the
// object more than its edges. On real photos the palette of the whole box named the floor under a
// red motorcycle and the sky round a white rocket; the ring alone named a spider's shadow "grey".
import sharp from 'sharp';
import { backdropDistance } from './backdrop-distance.ts';
import { colorName, deltaE, hexToRgb, rgbToHex, rgbToLab } from './color-names.ts';
import type { NamedColor } from './inventory-vision.ts';

/** Side of the sampled copies: 9,216 pixels decide the colour as well as a million. */
const SIDE = 96;
/** Width of the photo's outer ring, in sampled pixels. */
const RING = 4;
/** ΔE76 within which a pixel "looks like" a ring pixel: clearly different colours are further apart. */
const LIKE_BACKDROP = 10;
/** A pixel is backdrop when it looks like at least this share of the ring. */
const RING_SHARE = 0.03;
/**
 * Past this far from the edge (ΔE76 summed along the smoothest path, noise aside) a pixel is
 * object; the bar rises with the photo's contrast (a share of its 98th percentile).
 */
const EDGE_DISTANCE = 15;
const EDGE_DISTANCE_SHARE = 0.3;
/**
 * When the smooth-path rule keeps less than this share of what the ring rule kept, the object
 * itself reaches the photo's edge (a car filling the frame, an orange in shade): the ring rule
 * alone decides. So it does when the detector's box is cut by two sides of the frame.
 */
const EDGE_KEEPS = 0.3;

type Lab = [number, number, number];
/** A rectangle of the photo, in pixels (sharp's extract region). */
export interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface Pixel {
  rgb: [number, number, number];
  lab: Lab;
  x: number;
  y: number;
}

/** A cluster darker than this (CIE L*) with a hue of its own may be a shaded part of a lit one. */
const SHADE_L = 35;
/** Chroma (a*b*) from which a dark cluster's hue is read, and from which a lit one has a clear colour. */
const SHADE_CHROMA = 3;
const LIT_CHROMA = 15;
/** The lit cluster must be a fair part of the object, and within this hue angle of the shade. */
const LIT_SHARE = 0.1;
const SAME_HUE = 35;

/**
 * The object's colours with a shaded main colour named as its lit part: when the largest cluster is
 * dark but has a hue, and a clearly coloured, lighter cluster of about the same hue is a fair part
 * of the object too, that one is the object's colour in the light, and leads with both shares.
 * On real photos navy uniforms in shade were "black" and a pink bicycle "burgundy".
 */
export function litFirst(colours: NamedColor[]): NamedColor[] {
  const [top, ...rest] = colours;
  if (!top) return colours;
  const [L, a, b] = rgbToLab(...hexToRgb(top.hex));
  if (L >= SHADE_L || Math.hypot(a, b) < SHADE_CHROMA) return colours;
  const hue = Math.atan2(b, a);
  const lit = rest.find((c) => {
    if (c.share < LIT_SHARE) return false;
    const [L2, a2, b2] = rgbToLab(...hexToRgb(c.hex));
    if (L2 < L + 10 || Math.hypot(a2, b2) < LIT_CHROMA) return false;
    const d = Math.abs(Math.atan2(b2, a2) - hue);
    return (Math.min(d, 2 * Math.PI - d) * 180) / Math.PI <= SAME_HUE;
  });
  if (!lit) return colours;
  const share = Math.round((lit.share + top.share) * 100) / 100;
  return [{ ...lit, share }, ...rest.filter((c) => c !== lit)];
}

async function sample(image: Uint8Array): Promise<Pixel[]> {
  const { data } = await sharp(image)
    .resize(SIDE, SIDE, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out: Pixel[] = [];
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const i = (y * SIDE + x) * 3;
      const rgb: [number, number, number] = [data[i]!, data[i + 1]!, data[i + 2]!];
      out.push({ rgb, lab: rgbToLab(...rgb), x, y });
    }
  }
  return out;
}

/**
 * Up to `max` colours of the object in `image` (inside `region`, the detector's box, when given),
 * each with its share of the object, the most of it first.
 */
export async function objectColors(image: Uint8Array, region?: Region, max = 3): Promise<NamedColor[]> {
  const whole = await sample(image);
  const { width = 0, height = 0 } = region ? await sharp(image).metadata() : {};
  const ring = whole
    .filter((p) => p.x < RING || p.y < RING || p.x >= SIDE - RING || p.y >= SIDE - RING)
    .map((p) => p.lab);
  const need = Math.ceil(ring.length * RING_SHARE);
  const backdrop = (lab: Lab) => {
    let near = 0;
    for (const r of ring) if (deltaE(lab, r) < LIKE_BACKDROP && ++near >= need) return true;
    return false;
  };
  const tally = (pixels: Pixel[], box: { x0: number; x1: number; y0: number; y1: number }) => {
    const byName = new Map<string, { weight: number; r: number; g: number; b: number }>();
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    for (const p of pixels) {
      // The middle of the object weighs up to five times its corners.
      const dx = (p.x + 0.5 - cx) / ((box.x1 - box.x0) / 2);
      const dy = (p.y + 0.5 - cy) / ((box.y1 - box.y0) / 2);
      const weight = Math.max(0.2, 1 - 0.5 * (dx * dx + dy * dy));
      const name = colorName(rgbToHex(...p.rgb));
      const e = byName.get(name) ?? { weight: 0, r: 0, g: 0, b: 0 };
      e.weight += weight;
      e.r += p.rgb[0] * weight;
      e.g += p.rgb[1] * weight;
      e.b += p.rgb[2] * weight;
      byName.set(name, e);
    }
    return byName;
  };
  const distance = backdropDistance(
    whole.map((p) => p.lab),
    SIDE,
  );
  const sorted = Float64Array.from(distance).sort();
  const far = Math.max(EDGE_DISTANCE, EDGE_DISTANCE_SHARE * sorted[Math.floor(sorted.length * 0.98)]!);
  // The detector's box, in the sampled photo's pixels; positions are kept for the centre weight.
  const box = region
    ? {
        x0: (region.left / width) * SIDE,
        x1: ((region.left + region.width) / width) * SIDE,
        y0: (region.top / height) * SIDE,
        y1: ((region.top + region.height) / height) * SIDE,
      }
    : { x0: 0, x1: SIDE, y0: 0, y1: SIDE };
  const inside = whole.filter(
    (p) => p.x + 0.5 >= box.x0 && p.x + 0.5 <= box.x1 && p.y + 0.5 >= box.y0 && p.y + 0.5 <= box.y1,
  );
  const unlikeRing = inside.filter((p) => !backdrop(p.lab));
  const awayFromEdge = unlikeRing.filter((p) => distance[p.y * SIDE + p.x]! > far);
  const minimum = inside.length * 0.05;
  // A box cut by two sides of the frame holds an object that reaches the edge (a horse's head
  // filling the photo): being joined to the edge then says nothing about backdrop.
  const cutByFrame =
    region !== undefined &&
    Number(region.left <= 0) +
      Number(region.top <= 0) +
      Number(region.left + region.width >= width) +
      Number(region.top + region.height >= height) >=
      2;
  const foreground =
    !cutByFrame && awayFromEdge.length >= minimum && awayFromEdge.length >= unlikeRing.length * EDGE_KEEPS
      ? awayFromEdge
      : unlikeRing;
  // An object the colour of its backdrop (a white cup on a white table) is all that is there.
  const byName = tally(foreground.length >= minimum ? foreground : inside, box);
  const total = [...byName.values()].reduce((s, e) => s + e.weight, 0) || 1;
  const colours = [...byName.entries()]
    .map(([name, e]) => ({
      name,
      hex: rgbToHex(e.r / e.weight, e.g / e.weight, e.b / e.weight).toLowerCase(),
      share: Math.round((e.weight / total) * 100) / 100,
    }))
    .sort((a, b) => b.share - a.share);
  return litFirst(colours)
    .filter((c, i) => i === 0 || c.share >= 0.08)
    .slice(0, max);
}
