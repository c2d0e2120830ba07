// The barcode lookup port: the user's own catalogue first (an injected function, e.g. the
// catalogue service's items by barcode), then an external product database when BARCODE_LOOKUP_URL
// is configured (off by default: a lookup sends the code off the machine). EAN/UPC codes also get
// the GS1 prefix's country, which needs no lookup at all.
import type { BarcodeLookupResult } from './inventory-vision.ts';

export interface LocalBarcodeMatch {
  productName: string;
  brand?: string;
  description?: string;
  category?: string;
}

export interface BarcodeLookup {
  lookup(format: string, value: string, options?: { signal?: AbortSignal }): Promise<BarcodeLookupResult>;
}

export interface BarcodeLookupOptions {
  /** Local catalogue match (returns null when the code is unknown). */
  local?: (value: string, format: string) => Promise<LocalBarcodeMatch | null>;
  /** External lookup URL with `{code}` for the value; unset: no external lookup. */
  externalUrl?: string;
  /** Per request (default 5 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const RETAIL = /^(ean-?13|ean-?8|upc-?a|upc-?e|ean13|ean8|upca|upce)$/i;

/** GS1 company prefix → ISO 3166-1 alpha-2 (the country that issued the prefix, often the brand owner's). */
const GS1: Array<[number, number, string]> = [
  [0, 139, 'US'],
  [300, 379, 'FR'],
  [380, 380, 'BG'],
  [383, 383, 'SI'],
  [385, 385, 'HR'],
  [400, 440, 'DE'],
  [450, 459, 'JP'],
  [460, 469, 'RU'],
  [471, 471, 'TW'],
  [474, 474, 'EE'],
  [475, 475, 'LV'],
  [477, 477, 'LT'],
  [480, 480, 'PH'],
  [489, 489, 'HK'],
  [490, 499, 'JP'],
  [500, 509, 'GB'],
  [520, 521, 'GR'],
  [528, 528, 'LB'],
  [529, 529, 'CY'],
  [539, 539, 'IE'],
  [540, 549, 'BE'],
  [560, 560, 'PT'],
  [569, 569, 'IS'],
  [570, 579, 'DK'],
  [590, 590, 'PL'],
  [594, 594, 'RO'],
  [599, 599, 'HU'],
  [600, 601, 'ZA'],
  [603, 603, 'GH'],
  [608, 608, 'BH'],
  [609, 609, 'MU'],
  [611, 611, 'MA'],
  [613, 613, 'DZ'],
  [615, 615, 'NG'],
  [616, 616, 'KE'],
  [618, 618, 'CI'],
  [619, 619, 'TN'],
  [620, 620, 'TZ'],
  [621, 621, 'SY'],
  [622, 622, 'EG'],
  [625, 625, 'JO'],
  [626, 626, 'IR'],
  [627, 627, 'KW'],
  [628, 628, 'SA'],
  [629, 629, 'AE'],
  [640, 649, 'FI'],
  [690, 699, 'CN'],
  [700, 709, 'NO'],
  [729, 729, 'IL'],
  [730, 739, 'SE'],
  [740, 740, 'GT'],
  [745, 745, 'PA'],
  [750, 750, 'MX'],
  [754, 755, 'CA'],
  [759, 759, 'VE'],
  [760, 769, 'CH'],
  [770, 771, 'CO'],
  [773, 773, 'UY'],
  [775, 775, 'PE'],
  [778, 779, 'AR'],
  [780, 780, 'CL'],
  [784, 784, 'PY'],
  [786, 786, 'EC'],
  [789, 790, 'BR'],
  [800, 839, 'IT'],
  [840, 849, 'ES'],
  [850, 850, 'CU'],
  [858, 858, 'SK'],
  [859, 859, 'CZ'],
  [860, 860, 'RS'],
  [865, 865, 'MN'],
  [867, 867, 'KP'],
  [868, 869, 'TR'],
  [870, 879, 'NL'],
  [880, 880, 'KR'],
  [884, 884, 'KH'],
  [885, 885, 'TH'],
  [888, 888, 'SG'],
  [890, 890, 'IN'],
  [893, 893, 'VN'],
  [896, 896, 'PK'],
  [899, 899, 'ID'],
  [900, 919, 'AT'],
  [930, 939, 'AU'],
  [940, 949, 'NZ'],
  [955, 955, 'MY'],
  [958, 958, 'MO'],
];

export function gs1Country(format: string, value: string): string {
  if (!RETAIL.test(format) || !/^\d{8,14}$/.test(value)) return '';
  const digits = value.length === 12 ? `0${value}` : value;
  if (digits.length !== 13) return '';
  const prefix = Number(digits.slice(0, 3));
  return GS1.find(([lo, hi]) => prefix >= lo && prefix <= hi)?.[2] ?? '';
}

/** EAN-13 / UPC-A check digit (a misread code should not be looked up). */
export function validRetailCode(value: string): boolean {
  if (!/^\d{12,13}$/.test(value)) return false;
  const d = (value.length === 12 ? `0${value}` : value).split('').map(Number);
  const sum = d.slice(0, 12).reduce((s, x, i) => s + x * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10 === d[12];
}

const notFound = (source: string, originCountry = ''): BarcodeLookupResult => ({
  found: false,
  source,
  productName: '',
  brand: '',
  description: '',
  category: '',
  originCountry,
});

export function createBarcodeLookup(options: BarcodeLookupOptions = {}): BarcodeLookup {
  const doFetch = options.fetch ?? fetch;
  return {
    async lookup(format, value, opts = {}) {
      const country = gs1Country(format, value);
      if (options.local) {
        const hit = await options.local(value, format);
        if (hit) {
          return {
            found: true,
            source: 'local',
            productName: hit.productName,
            brand: hit.brand ?? '',
            description: hit.description ?? '',
            category: hit.category ?? '',
            originCountry: country,
          };
        }
      }
      // Only product codes go out: a QR code may hold a private URL or text.
      if (!options.externalUrl || !RETAIL.test(format) || !validRetailCode(value))
        return notFound(options.local ? 'local' : '', country);
      const url = options.externalUrl.replace('{code}', encodeURIComponent(value));
      const signal = AbortSignal.any([
        AbortSignal.timeout(options.timeoutMs ?? 5000),
        ...(opts.signal ? [opts.signal] : []),
      ]);
      let body: unknown;
      try {
        const res = await doFetch(url, {
          signal,
          headers: { accept: 'application/json', 'user-agent': 'Kaboodle/0.2 (barcode lookup)' },
        });
        if (res.status === 404) return notFound('external', country);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        body = await res.json();
      } catch (err) {
        // A lookup is a nicety: its failure never fails the item.
        return { ...notFound('external', country), description: `lookup failed: ${(err as Error).message}` };
      }
      return parseExternal(body, country);
    },
  };
}

/** Open Food Facts / UPCitemdb / generic {name, brand} answers. */
function parseExternal(body: unknown, country: string): BarcodeLookupResult {
  const b = (body ?? {}) as Record<string, unknown>;
  const product = (b.product ?? (Array.isArray(b.items) ? b.items[0] : undefined) ?? b) as Record<
    string,
    unknown
  >;
  const s = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const productName = s(product.product_name) || s(product.title) || s(product.name);
  if (!productName || b.status === 0) return notFound('external', country);
  return {
    found: true,
    source: 'external',
    productName,
    brand: s(product.brands) || s(product.brand),
    description: s(product.generic_name) || s(product.description),
    category: s(product.categories)?.split(',')[0]?.trim() || s(product.category),
    originCountry: country,
  };
}
