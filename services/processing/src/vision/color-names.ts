// Names for colours: nearest entry of a small named palette by CIEDE2000, so `#c43c2c` reads as
// "red" and `#7d1d15` as "maroon" the way a person would say it. Plain Lab distance (ΔE76) let
// lightness outweigh hue: on real photos a peach dahlia was "tan" and a shaded teal butterfly
// "charcoal".

const NAMED: Array<[string, string]> = [
  ['red', '#d0312d'],
  ['crimson', '#b0172f'],
  ['maroon', '#7a1f1f'],
  ['coral', '#ff7f50'],
  ['orange', '#f28c28'],
  ['amber', '#ffbf00'],
  ['yellow', '#f5d90a'],
  ['gold', '#d4af37'],
  ['olive', '#808000'],
  ['lime', '#9acd32'],
  ['green', '#2e8b57'],
  ['forest green', '#1f5f2f'],
  ['mint', '#98d8b0'],
  ['teal', '#128080'],
  ['turquoise', '#40c4c0'],
  ['sky blue', '#87ceeb'],
  ['blue', '#2e6fd0'],
  // A name may have more than one shade: the fully saturated primaries and secondaries must read as
  // a person names them ("blue", "magenta"), not as the nearest of the muted shades above.
  ['blue', '#0000ff'],
  ['navy', '#1b2a5c'],
  ['indigo', '#4b2a8a'],
  ['purple', '#7d3c98'],
  ['violet', '#9b6fd6'],
  ['magenta', '#d1338f'],
  ['magenta', '#ff00ff'],
  ['pink', '#f4a6c0'],
  ['rose', '#e05a7a'],
  ['brown', '#7b4a2a'],
  ['chocolate', '#4e2a16'],
  ['tan', '#c8a27a'],
  ['beige', '#e6d5b8'],
  ['cream', '#f5efd8'],
  ['ivory', '#fbf8ef'],
  ['white', '#ffffff'],
  ['light grey', '#cfcfcf'],
  ['grey', '#8a8a8a'],
  ['charcoal', '#3a3a3a'],
  ['black', '#111111'],
  ['terracotta', '#c0623e'],
  ['mustard', '#c9a227'],
  ['burgundy', '#6d1a36'],
  ['khaki', '#b9a86b'],
  ['silver', '#b8bcc2'],
];

export function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function rgbToHex(r: number, g: number, b: number): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

type Lab = [number, number, number];

export function rgbToLab(r: number, g: number, b: number): Lab {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const x = (R * 0.4124 + G * 0.3576 + B * 0.1805) / 0.95047;
  const y = R * 0.2126 + G * 0.7152 + B * 0.0722;
  const z = (R * 0.0193 + G * 0.1192 + B * 0.9505) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

export function deltaE(a: Lab, b: Lab): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/**
 * CIEDE2000 colour difference (Sharma, Wu and Dalal, 2005): lightness, chroma and hue weighed as
 * people see them, so a shaded or lit part of one colour stays nearer its hue than a neutral.
 */
export function deltaE2000(x: Lab, y: Lab): number {
  const [L1, a1, b1] = x;
  const [L2, a2, b2] = y;
  const rad = Math.PI / 180;
  const C7 = ((Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(C7 / (C7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1 = Math.hypot(a1p, b1);
  const C2 = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1 = hue(b1, a1p);
  const h2 = hue(b2, a2p);
  const neutral = C1 * C2 === 0;
  let dh = neutral ? 0 : h2 - h1;
  if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dH = 2 * Math.sqrt(C1 * C2) * Math.sin((dh / 2) * rad);
  const L = (L1 + L2) / 2;
  const C = (C1 + C2) / 2;
  let h = h1 + h2;
  if (!neutral) {
    if (Math.abs(h1 - h2) <= 180) h /= 2;
    else h = h < 360 ? (h + 360) / 2 : (h - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos((h - 30) * rad) +
    0.24 * Math.cos(2 * h * rad) +
    0.32 * Math.cos((3 * h + 6) * rad) -
    0.2 * Math.cos((4 * h - 63) * rad);
  const dTheta = 30 * Math.exp(-(((h - 275) / 25) ** 2));
  const Rc = 2 * Math.sqrt(C ** 7 / (C ** 7 + 25 ** 7));
  const Sl = 1 + (0.015 * (L - 50) ** 2) / Math.sqrt(20 + (L - 50) ** 2);
  const Sc = 1 + 0.045 * C;
  const Sh = 1 + 0.015 * C * T;
  const Rt = -Math.sin(2 * dTheta * rad) * Rc;
  const [l, c, hh] = [(L2 - L1) / Sl, (C2 - C1) / Sc, dH / Sh];
  return Math.sqrt(l * l + c * c + hh * hh + Rt * c * hh);
}

const NAMED_LAB = NAMED.map(([name, hex]) => ({ name, lab: rgbToLab(...hexToRgb(hex)) }));
/** Names already given, by #rrggbb: a photo repeats its colours, and CIEDE2000 is dear. */
const named = new Map<string, string>();

export function colorName(hex: string): string {
  const key = hex.toLowerCase();
  const known = named.get(key);
  if (known) return known;
  const lab = rgbToLab(...hexToRgb(hex));
  let best = NAMED_LAB[0]!;
  let bestD = Infinity;
  for (const c of NAMED_LAB) {
    const d = deltaE2000(lab, c.lab);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  // Bounded: past 64k colours start again rather than grow without end.
  if (named.size >= 65_536) named.clear();
  named.set(key, best.name);
  return best.name;
}

/** HSL saturation and lightness in [0,1], to tell a neutral backdrop from a coloured object. */
export function saturationLightness(hex: string): { s: number; l: number } {
  const [r, g, b] = hexToRgb(hex).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const s = max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
  return { s, l };
}
