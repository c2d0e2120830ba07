// Judgement over what was measured: the item's category (Beads, Stools, Bowls, Fans, Totebags,
// Home Decor or Other) from recognised objects, OCR text, the file name, the user's instructions
// and colours; its material when some text says it; stated dimensions; a name and a description.
import type { Detection, InventoryCategory, NamedColor, StatedDimensions } from './inventory-vision.ts';

export interface CategoryEvidence {
  labels: Detection[];
  ocrText: string;
  fileName: string;
  instructions: string;
  /** The lookup's product category/name, when a barcode was found. */
  lookupText: string;
}

export interface CategoryDecision {
  category: InventoryCategory;
  confidence: number;
  /** Which signal decided: `instructions`, `file name`, `text`, `objects`, `barcode lookup`. */
  source: string;
  evidence: string;
}

const WORDS: Record<Exclude<InventoryCategory, 'Other'>, RegExp> = {
  Beads: /\b(beads?|beaded|beadwork|necklaces?|bracelets?|anklets?|jewell?ery|strands?)\b/i,
  Stools: /\b(stools?|footstools?|bar ?stools?|seats?|ottomans?|benches)\b/i,
  Bowls: /\b(bowls?|dish(?:es)?|basins?|calabash(?:es)?|gourds?|platters?)\b/i,
  Fans: /\b(fans?|hand ?fans?|folding fans?|fly ?whisks?)\b/i,
  Totebags: /\b(totes?|tote ?bags?|shopping bags?|shoppers?|canvas bags?|bags?|handbags?|purses?)\b/i,
  'Home Decor':
    /\b(vases?|cushions?|pillows?|rugs?|mats?|baskets?|candles?|candle ?holders?|frames?|wall ?hangings?|ornaments?|lamps?|decor|d[ée]cor|coasters?|runners?|throws?|sculptures?|masks?|clocks?|planters?)\b/i,
};

/**
 * From this detector score on, what the detector saw names the item and counts towards its
 * category. On the real photos half the labels scored 0.4 to 0.6 were wrong (a bulb "cup").
 */
const NAMED_OBJECT_SCORE = 0.6;

/** COCO labels that point at a category, with how much they count. */
const LABELS: Record<string, [InventoryCategory, number]> = {
  bowl: ['Bowls', 1],
  cup: ['Bowls', 0.6],
  'wine glass': ['Home Decor', 0.4],
  chair: ['Stools', 0.8],
  bench: ['Stools', 0.7],
  couch: ['Home Decor', 0.4],
  handbag: ['Totebags', 1],
  backpack: ['Totebags', 0.6],
  suitcase: ['Totebags', 0.4],
  vase: ['Home Decor', 1],
  'potted plant': ['Home Decor', 0.8],
  clock: ['Home Decor', 0.8],
  'teddy bear': ['Home Decor', 0.5],
  bed: ['Home Decor', 0.4],
  kite: ['Fans', 0.4],
  umbrella: ['Fans', 0.4],
  frisbee: ['Bowls', 0.35],
  donut: ['Beads', 0.25],
  'sports ball': ['Beads', 0.25],
};

export function decideCategory(e: CategoryEvidence): CategoryDecision {
  const score = new Map<InventoryCategory, { s: number; source: string; evidence: string; weight: number }>();
  const add = (c: InventoryCategory, s: number, source: string, evidence: string) => {
    const prev = score.get(c);
    if (!prev) score.set(c, { s, source, evidence, weight: s });
    else {
      prev.s += s;
      if (s > prev.weight) Object.assign(prev, { source, evidence, weight: s });
    }
  };
  const texts: Array<[string, string, number]> = [
    [e.instructions, 'instructions', 3],
    [e.fileName.replace(/\.[^.]+$/, '').replace(/[_\-.]+/g, ' '), 'file name', 2],
    [e.lookupText, 'barcode lookup', 2],
    [e.ocrText, 'text in the picture', 1.5],
  ];
  for (const [text, source, weight] of texts) {
    if (!text) continue;
    for (const [cat, re] of Object.entries(WORDS) as Array<[InventoryCategory, RegExp]>) {
      const m = re.exec(text);
      // "bag" in "Home Decor" words would be ambiguous; the first pattern to match wins per text.
      if (m) add(cat, weight, source, m[0]);
    }
  }
  for (const o of e.labels) {
    // A guess is not a cue: a bulb taken for a "cup" at 0.43 made it a bowl.
    if (o.score < NAMED_OBJECT_SCORE) continue;
    const mapped = LABELS[o.label];
    if (mapped) add(mapped[0], mapped[1] * o.score * 2, 'objects', `${o.label} (${o.score})`);
  }
  const ranked = [...score.entries()].sort((a, b) => b[1].s - a[1].s);
  const best = ranked[0];
  if (!best || best[1].s < 0.5)
    return { category: 'Other', confidence: 0.3, source: 'rules', evidence: 'no category cue' };
  const second = ranked[1]?.[1].s ?? 0;
  const confidence = Math.min(
    0.95,
    0.4 + 0.5 * ((best[1].s - second) / best[1].s) * Math.min(1, best[1].s / 2),
  );
  return {
    category: best[0],
    confidence: Math.round(confidence * 100) / 100,
    source: best[1].source,
    evidence: best[1].evidence,
  };
}

const MATERIALS: Array<[string, RegExp]> = [
  ['glass beads', /\bglass beads?\b/i],
  ['wood', /\b(wood(?:en)?|teak|oak|mahogany|walnut|acacia|mango wood|ebony|carved)\b/i],
  ['ceramic', /\b(ceramic|stoneware|earthenware|porcelain|terracotta|clay|pottery)\b/i],
  ['glass', /\bglass\b/i],
  ['cotton canvas', /\b(canvas|cotton)\b/i],
  ['jute', /\b(jute|hessian|burlap)\b/i],
  ['linen', /\blinen\b/i],
  ['leather', /\bleather\b/i],
  ['raffia', /\b(raffia|straw|palm leaf|sisal)\b/i],
  ['rattan', /\b(rattan|wicker|cane)\b/i],
  ['bamboo', /\bbamboo\b/i],
  ['brass', /\bbrass\b/i],
  ['copper', /\bcopper\b/i],
  ['metal', /\b(metal|steel|iron|aluminium|aluminum|tin)\b/i],
  ['wool', /\b(wool|felt)\b/i],
  ['silk', /\bsilk\b/i],
  ['recycled plastic', /\brecycled plastic\b/i],
  ['plastic', /\b(plastic|acrylic|resin)\b/i],
  ['stone', /\b(stone|marble|soapstone|granite)\b/i],
  ['bone', /\b(bone|horn)\b/i],
  ['paper', /\b(paper|papier[- ]m[aâ]ch[eé])\b/i],
  ['gourd', /\b(gourd|calabash)\b/i],
];

export function findMaterial(
  texts: Array<[string, string]>,
): { material: string; source: string; evidence: string } | null {
  for (const [text, source] of texts) {
    if (!text) continue;
    for (const [material, re] of MATERIALS) {
      const m = re.exec(text);
      if (m) return { material, source, evidence: m[0] };
    }
  }
  return null;
}

const LEN_UNITS: Record<string, string> = {
  cm: 'cm',
  mm: 'mm',
  m: 'm',
  in: 'in',
  inch: 'in',
  inches: 'in',
  '"': 'in',
  '″': 'in',
  ft: 'ft',
};
const WEIGHT_UNITS: Record<string, string> = { kg: 'kg', g: 'g', lb: 'lb', lbs: 'lb', oz: 'oz' };

/** "30 x 40 cm", "12×8×5 in", "diameter 25cm", "H 45 cm", "weight: 1.2 kg". */
export function findDimensions(text: string): StatedDimensions | undefined {
  if (!text) return undefined;
  const n = '(\\d+(?:[.,]\\d+)?)';
  const unit = '(cm|mm|m|in|inch|inches|ft|"|″)';
  const out: StatedDimensions = { lengthUnit: '', weightUnit: '', text: '' };
  const parts: string[] = [];
  const num = (s: string) => Number(s.replace(',', '.'));
  const box = new RegExp(
    `${n}\\s*${unit}?\\s*[x×*]\\s*${n}\\s*${unit}?(?:\\s*[x×*]\\s*${n})?\\s*${unit}`,
    'i',
  ).exec(text);
  if (box) {
    out.width = num(box[1]!);
    out.height = num(box[3]!);
    if (box[5]) out.depth = num(box[5]);
    out.lengthUnit = LEN_UNITS[(box[6] ?? box[4] ?? box[2] ?? '').toLowerCase()] ?? '';
    parts.push(box[0]);
  } else {
    const labelled: Array<[keyof StatedDimensions, RegExp]> = [
      ['width', new RegExp(`\\b(?:width|w|diameter|dia\\.?|ø)\\s*[:=]?\\s*${n}\\s*${unit}`, 'i')],
      [
        'height',
        new RegExp(`\\b(?:height|h|tall)\\s*[:=]?\\s*${n}\\s*${unit}|${n}\\s*${unit}\\s+(?:tall|high)`, 'i'),
      ],
      ['depth', new RegExp(`\\b(?:depth|d|length|l)\\s*[:=]?\\s*${n}\\s*${unit}`, 'i')],
    ];
    for (const [key, re] of labelled) {
      const m = re.exec(text);
      if (!m) continue;
      const value = m[1] ?? m[3];
      const u = m[2] ?? m[4];
      (out as unknown as Record<string, number>)[key] = num(value!);
      out.lengthUnit ||= LEN_UNITS[(u ?? '').toLowerCase()] ?? '';
      parts.push(m[0]);
    }
  }
  const w = new RegExp(`${n}\\s*(kg|g|lbs?|oz)\\b`, 'i').exec(text);
  if (w) {
    out.weight = num(w[1]!);
    out.weightUnit = WEIGHT_UNITS[w[2]!.toLowerCase()] ?? '';
    parts.push(w[0]);
  }
  if (parts.length === 0) return undefined;
  out.text = parts.join('; ');
  return out;
}

const NOUNS: Record<InventoryCategory, string> = {
  Beads: 'beads',
  Stools: 'stool',
  Bowls: 'bowl',
  Fans: 'hand fan',
  Totebags: 'tote bag',
  'Home Decor': 'decor piece',
  Other: 'item',
};

/** "Red ceramic bowl", "Blue tote bag": what a person would label the photo. */
export function composeName(
  category: InventoryCategory,
  colors: NamedColor[],
  material: string,
  objects: Detection[],
): string {
  // A person holding the item is not the item ("Tan person" for a crate held over a net), and a
  // guess is not a name: on the real photos half the detector's labels scored 0.4 to 0.6 named the
  // wrong thing (a cat and a spider "dog", a butterfly "cake", a spray bottle "vase").
  const seen = objects.find((o) => o.label !== 'person' && o.score >= NAMED_OBJECT_SCORE);
  const noun = (category === 'Home Decor' || category === 'Other') && seen ? seen.label : NOUNS[category];
  const color = colors[0]?.name ?? '';
  const words = withoutRepeats([color, material, noun].filter(Boolean).join(' '));
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A name says each word once: "teal glass beads beads" → "teal glass beads", "wood wooden stool"
 * stays as is but "bead beads" → "beads". The last of repeated words (the noun's) is kept.
 */
export function withoutRepeats(name: string): string {
  const stem = (w: string) => w.toLowerCase().replace(/(?:es|s)$/, '');
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const w of name.split(/\s+/).filter(Boolean).reverse()) {
    if (seen.has(stem(w))) continue;
    seen.add(stem(w));
    kept.push(w);
  }
  return kept.reverse().join(' ');
}

export function composeDescription(parts: {
  name: string;
  category: InventoryCategory;
  colors: NamedColor[];
  material: string;
  objects: Detection[];
  dimensions?: StatedDimensions;
  barcodes: Array<{ format: string; value: string; product?: string }>;
  ocrText: string;
}): string {
  const s: string[] = [];
  const colorText = parts.colors.map((c) => c.name).join(', ');
  s.push(
    `${parts.name}${parts.category !== 'Other' ? ` (${parts.category})` : ''}${colorText ? ` in ${colorText}` : ''}.`,
  );
  if (parts.material) s.push(`Made of ${parts.material}.`);
  if (parts.dimensions) s.push(`Dimensions: ${parts.dimensions.text}.`);
  const seen = parts.objects
    .filter((o) => o.score >= 0.3)
    .slice(0, 3)
    .map((o) => o.label);
  if (seen.length) s.push(`Recognised in the photo: ${[...new Set(seen)].join(', ')}.`);
  for (const b of parts.barcodes.slice(0, 2))
    s.push(`${b.format} code ${b.value}${b.product ? ` (${b.product})` : ''}.`);
  const label = parts.ocrText.replace(/\s+/g, ' ').trim();
  if (label) s.push(`Label text: "${label.length > 120 ? `${label.slice(0, 119)}…` : label}".`);
  return s.join(' ');
}

export interface StatedMoney {
  /** ISO 4217. */
  currencyCode: string;
  units: number;
  nanos: number;
  /** The words it was read from, e.g. "price $24.50". */
  text: string;
}

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₦': 'NGN',
  '₹': 'INR',
};
const CODES = 'USD|EUR|GBP|JPY|KES|NGN|GHS|ZAR|INR|CAD|AUD|CHF';
const CURRENCY_WORDS: Record<string, string> = {
  dollars: 'USD',
  dollar: 'USD',
  euros: 'EUR',
  euro: 'EUR',
  pounds: 'GBP',
};

function toMoney(code: string, amount: string, text: string): StatedMoney {
  const value = Number(amount.replace(',', '.'));
  const units = Math.floor(value);
  return { currencyCode: code, units, nanos: Math.round((value - units) * 1e9), text: text.trim() };
}

/**
 * Prices stated in the instructions or on a label: "price $24.50", "retail: 30 EUR", "cost £4".
 * A cost word (cost, import, wholesale, paid) makes it the import cost; otherwise it is the retail price.
 */
export function findPrices(text: string): { retail?: StatedMoney; cost?: StatedMoney } {
  const out: { retail?: StatedMoney; cost?: StatedMoney } = {};
  if (!text) return out;
  const amount = '(\\d{1,6}(?:[.,]\\d{1,2})?)';
  const re = new RegExp(
    `((?:[A-Za-z]+[\\s:]+){0,3})(?:([$€£¥₦₹])\\s?${amount}|(${CODES})\\s?${amount}|${amount}\\s?(${CODES}|dollars?|euros?|pounds)\\b)`,
    'gi',
  );
  for (const m of text.matchAll(re)) {
    const code = m[2]
      ? SYMBOLS[m[2]]!
      : m[4]
        ? m[4].toUpperCase()
        : (CURRENCY_WORDS[(m[7] ?? '').toLowerCase()] ?? (m[7] ?? '').toUpperCase());
    const value = m[3] ?? m[5] ?? m[6];
    if (!value || !code) continue;
    const isCost = /\b(cost|import|imported|wholesale|paid|bought|purchase)\b/i.test(m[1] ?? '');
    const money = toMoney(code, value, m[0]);
    if (isCost) out.cost ??= money;
    else out.retail ??= money;
  }
  return out;
}
