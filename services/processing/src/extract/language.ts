// Language of extracted text with franc-min (trigram statistics, no model download), reported as
// ISO 639-1 where one exists; too-short text gets no guess rather than a wrong one.
import { franc } from 'franc-min';

const ISO_639_1: Record<string, string> = {
  eng: 'en',
  fra: 'fr',
  deu: 'de',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  nld: 'nl',
  swe: 'sv',
  dan: 'da',
  nob: 'no',
  fin: 'fi',
  pol: 'pl',
  ces: 'cs',
  slk: 'sk',
  hun: 'hu',
  ron: 'ro',
  rus: 'ru',
  ukr: 'uk',
  bul: 'bg',
  ell: 'el',
  tur: 'tr',
  arb: 'ar',
  heb: 'he',
  hin: 'hi',
  ben: 'bn',
  cmn: 'zh',
  jpn: 'ja',
  kor: 'ko',
  vie: 'vi',
  ind: 'id',
  zlm: 'ms',
  tha: 'th',
  swh: 'sw',
  hrv: 'hr',
  srp: 'sr',
  slv: 'sl',
  lit: 'lt',
  lav: 'lv',
  est: 'et',
  cat: 'ca',
  pes: 'fa',
  urd: 'ur',
  tam: 'ta',
  tel: 'te',
  yor: 'yo',
  hau: 'ha',
  ibo: 'ig',
  amh: 'am',
  som: 'so',
  tgl: 'tl',
};

/** Fewer characters than this and trigram guesses are noise. */
const MIN_CHARS = 60;

export function detectLanguage(text: string): string | undefined {
  const sample = text.slice(0, 4_000);
  if (sample.replace(/\s+/g, '').length < MIN_CHARS) return undefined;
  const code = franc(sample, { minLength: MIN_CHARS });
  if (code === 'und') return undefined;
  return ISO_639_1[code] ?? code;
}
