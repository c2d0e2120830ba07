// The "find an item by photo" evaluation set, drawn offline: handmade goods (bowls, vases, stools,
// fans, tote bags, bead strings, baskets, mugs, lamps, plates) in several colours and patterns, each
// photographed once for the catalogue and again as a person would re-photograph it: another angle
// (rotation, perspective squash), distance and crop, light (brightness, warmth, a shadow gradient),
// background (colour, texture), focus and JPEG. Near-twins are on purpose: the same shape in the same
// colour with another pattern, and the same pattern in another colour, so neither the colour
// histogram nor the outline alone can tell them apart. Seeded: the same set every run.
import sharp from 'sharp';

export interface EvalItem {
  id: string;
  /** What the catalogue holds. */
  catalogue: Buffer;
  /** The same object photographed again (the queries). */
  rephotos: Buffer[];
}

const SIZE = 640;

/** Mulberry32: small, seeded, good enough for picking shapes and angles. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COLOURS = ['#c0392b', '#2e86c1', '#27ae60', '#f1c40f', '#8e44ad', '#d35400', '#16a085', '#6e2c00'];
const SHAPES = ['bowl', 'vase', 'stool', 'fan', 'tote', 'beads', 'basket', 'mug', 'lamp', 'plate'] as const;
const PATTERNS = ['plain', 'stripes', 'dots', 'zigzag', 'checks'] as const;
type Shape = (typeof SHAPES)[number];
type Pattern = (typeof PATTERNS)[number];

function patternDef(id: string, pattern: Pattern, colour: string, accent: string): string {
  switch (pattern) {
    case 'stripes':
      return `<pattern id="${id}" width="28" height="28" patternUnits="userSpaceOnUse"><rect width="28" height="28" fill="${colour}"/><rect width="28" height="9" fill="${accent}"/></pattern>`;
    case 'dots':
      return `<pattern id="${id}" width="30" height="30" patternUnits="userSpaceOnUse"><rect width="30" height="30" fill="${colour}"/><circle cx="15" cy="15" r="6" fill="${accent}"/></pattern>`;
    case 'zigzag':
      return `<pattern id="${id}" width="40" height="24" patternUnits="userSpaceOnUse"><rect width="40" height="24" fill="${colour}"/><path d="M0 18 L10 6 L20 18 L30 6 L40 18" stroke="${accent}" stroke-width="5" fill="none"/></pattern>`;
    case 'checks':
      return `<pattern id="${id}" width="36" height="36" patternUnits="userSpaceOnUse"><rect width="36" height="36" fill="${colour}"/><rect width="18" height="18" fill="${accent}"/><rect x="18" y="18" width="18" height="18" fill="${accent}"/></pattern>`;
    default:
      return `<pattern id="${id}" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="10" height="10" fill="${colour}"/></pattern>`;
  }
}

function shapeBody(shape: Shape, fill: string, dark: string): string {
  switch (shape) {
    case 'bowl':
      return `<path d="M110 280 Q320 560 530 280 Z" fill="${fill}"/><ellipse cx="320" cy="280" rx="210" ry="42" fill="${dark}"/><rect x="270" y="455" width="100" height="22" fill="${dark}"/>`;
    case 'vase':
      return `<path d="M270 110 L370 110 L360 170 Q470 260 420 430 Q400 500 320 505 Q240 500 220 430 Q170 260 280 170 Z" fill="${fill}"/><ellipse cx="320" cy="110" rx="50" ry="12" fill="${dark}"/>`;
    case 'stool':
      return `<ellipse cx="320" cy="210" rx="190" ry="48" fill="${fill}"/><rect x="130" y="210" width="380" height="40" fill="${fill}"/><path d="M170 250 L140 520 L170 520 L215 250 Z" fill="${dark}"/><path d="M470 250 L500 520 L470 520 L425 250 Z" fill="${dark}"/><path d="M305 250 L300 540 L340 540 L335 250 Z" fill="${dark}"/>`;
    case 'fan':
      return `<path d="M320 470 L110 230 A300 300 0 0 1 530 230 Z" fill="${fill}"/><rect x="305" y="460" width="30" height="120" fill="${dark}"/>`;
    case 'tote':
      return `<path d="M240 240 Q240 110 320 110 Q400 110 400 240" stroke="${dark}" stroke-width="22" fill="none"/><path d="M150 240 L490 240 L460 540 L180 540 Z" fill="${fill}"/>`;
    case 'beads':
      return Array.from({ length: 14 }, (_, i) => {
        const a = (i / 14) * Math.PI * 2;
        return `<circle cx="${320 + Math.cos(a) * 190}" cy="${320 + Math.sin(a) * 150}" r="${i % 2 ? 30 : 38}" fill="${i % 3 ? fill : dark}"/>`;
      }).join('');
    case 'basket':
      return `<path d="M120 260 L520 260 L470 520 L170 520 Z" fill="${fill}"/><path d="M170 260 Q320 60 470 260" stroke="${dark}" stroke-width="18" fill="none"/><rect x="120" y="250" width="400" height="26" fill="${dark}"/>`;
    case 'mug':
      return `<rect x="180" y="170" width="240" height="320" rx="22" fill="${fill}"/><path d="M420 230 Q530 240 520 330 Q510 420 420 420" stroke="${dark}" stroke-width="30" fill="none"/><ellipse cx="300" cy="172" rx="120" ry="18" fill="${dark}"/>`;
    case 'lamp':
      return `<path d="M200 140 L440 140 L500 320 L140 320 Z" fill="${fill}"/><rect x="305" y="320" width="30" height="170" fill="${dark}"/><ellipse cx="320" cy="500" rx="120" ry="28" fill="${dark}"/>`;
    case 'plate':
      return `<ellipse cx="320" cy="330" rx="250" ry="170" fill="${fill}"/><ellipse cx="320" cy="330" rx="160" ry="105" fill="${dark}" opacity="0.55"/>`;
  }
}

function itemSvg(
  spec: { shape: Shape; pattern: Pattern; colour: string; accent: string },
  scene: {
    angle: number;
    squash: number;
    scale: number;
    dx: number;
    dy: number;
    background: string;
    texture: number;
  },
): string {
  const dark = `${spec.colour}`;
  const texture =
    scene.texture > 0
      ? `<pattern id="bg" width="24" height="24" patternUnits="userSpaceOnUse"><rect width="24" height="24" fill="${scene.background}"/><path d="M0 24 L24 0" stroke="#000" stroke-opacity="${scene.texture}" stroke-width="3"/></pattern>`
      : '';
  const bgFill = scene.texture > 0 ? 'url(#bg)' : scene.background;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}"><defs>${texture}${patternDef('p', spec.pattern, spec.colour, spec.accent)}<linearGradient id="light" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.18"/><stop offset="1" stop-color="#000" stop-opacity="0.28"/></linearGradient></defs><rect width="${SIZE}" height="${SIZE}" fill="${bgFill}"/><g transform="translate(${320 + scene.dx} ${320 + scene.dy}) rotate(${scene.angle}) scale(${scene.scale} ${scene.scale * scene.squash}) translate(-320 -320)"><ellipse cx="320" cy="560" rx="230" ry="30" fill="#000" opacity="0.25"/>${shapeBody(spec.shape, 'url(#p)', dark)}</g><rect width="${SIZE}" height="${SIZE}" fill="url(#light)"/></svg>`;
}

const BACKGROUNDS = ['#eeeeee', '#d9cbb3', '#9fb3c8', '#f7f1e3', '#5d6d7e', '#c8d6c1', '#e8d5d5'];

/** `count` distinct items (near-twins included), each with `rephotos` re-photographs. */
export async function rephotographedItems(count = 60, rephotos = 3, seed = 7): Promise<EvalItem[]> {
  const rand = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const specs: { shape: Shape; pattern: Pattern; colour: string; accent: string }[] = [];
  const key = (s: (typeof specs)[number]) => `${s.shape}/${s.pattern}/${s.colour}`;
  const seen = new Set<string>();
  while (specs.length < count) {
    const base =
      specs.length > 0 && rand() < 0.5
        ? { ...specs[specs.length - 1]! } // a near-twin of the last one: change one thing
        : { shape: pick(SHAPES), pattern: pick(PATTERNS), colour: pick(COLOURS), accent: '#f4ecd8' };
    if (seen.has(key(base))) {
      if (rand() < 0.5) base.pattern = pick(PATTERNS);
      else base.colour = pick(COLOURS);
    }
    if (seen.has(key(base))) continue;
    seen.add(key(base));
    specs.push(base);
  }
  const render = async (
    svg: string,
    look: { brightness: number; saturation: number; hue: number; blur: number; quality: number },
  ) => {
    let img = sharp(Buffer.from(svg)).modulate({
      brightness: look.brightness,
      saturation: look.saturation,
      hue: look.hue,
    });
    if (look.blur > 0.3) img = img.blur(look.blur);
    return img.jpeg({ quality: look.quality }).toBuffer();
  };
  const items: EvalItem[] = [];
  for (const [i, spec] of specs.entries()) {
    const catalogue = await render(
      itemSvg(spec, { angle: 0, squash: 1, scale: 0.9, dx: 0, dy: 0, background: '#eeeeee', texture: 0 }),
      { brightness: 1, saturation: 1, hue: 0, blur: 0, quality: 90 },
    );
    const again: Buffer[] = [];
    for (let r = 0; r < rephotos; r++) {
      const scene = {
        angle: (rand() - 0.5) * 40,
        squash: 0.8 + rand() * 0.25,
        scale: 0.65 + rand() * 0.45,
        dx: (rand() - 0.5) * 140,
        dy: (rand() - 0.5) * 120,
        background: pick(BACKGROUNDS),
        texture: rand() < 0.4 ? 0.15 : 0,
      };
      again.push(
        await render(itemSvg(spec, scene), {
          brightness: 0.75 + rand() * 0.5,
          saturation: 0.8 + rand() * 0.4,
          hue: Math.round((rand() - 0.5) * 16),
          blur: rand() * 1.6,
          quality: 60 + Math.floor(rand() * 30),
        }),
      );
    }
    items.push({
      id: `item-${String(i + 1).padStart(3, '0')}-${spec.shape}-${spec.pattern}`,
      catalogue,
      rephotos: again,
    });
  }
  return items;
}
