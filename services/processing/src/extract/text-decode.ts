// Decoding text files in whatever encoding people save them in: BOMs first, then UTF-16 without a
// BOM (zero-byte pattern), then strict UTF-8, then a statistical guess (chardet) decoded by iconv-lite,
// with windows-1252 as the last resort (what browsers do for unlabeled Western text).
import chardet from 'chardet';
import iconv from 'iconv-lite';

export interface DecodedText {
  text: string;
  /** Lower-case WHATWG-style label: utf-8, utf-16le, utf-16be, windows-1252, iso-8859-2, shift_jis... */
  encoding: string;
  hadBom: boolean;
  /** Invalid byte sequences replaced by U+FFFD (only when the text is UTF-8 with a few bad bytes). */
  replaced?: number;
}

const SAMPLE = 64 * 1024;

function bomEncoding(b: Uint8Array): { encoding: string; length: number } | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe && !(b[2] === 0 && b[3] === 0))
    return { encoding: 'utf-16le', length: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** UTF-16 without a BOM: mostly-ASCII text puts a zero in every other byte. */
function utf16WithoutBom(b: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(b.length, SAMPLE) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] === 0) evenZeros++;
    if (b[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros / pairs > 0.3 && evenZeros / pairs < 0.05) return 'utf-16le';
  if (evenZeros / pairs > 0.3 && oddZeros / pairs < 0.05) return 'utf-16be';
  return null;
}

/** Share of characters that no text file contains (C0 controls other than tab/CR/LF/FF/ESC, U+FFFD). */
function controlRatio(text: string): number {
  const n = Math.min(text.length, SAMPLE);
  if (n === 0) return 0;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27) || c === 0xfffd || c === 0x7f)
      bad++;
  }
  return bad / n;
}

function normaliseLabel(name: string): string {
  const lower = name.toLowerCase();
  // Browsers decode ISO-8859-1 as windows-1252 (its printable superset); so do we.
  if (lower === 'iso-8859-1' || lower === 'ascii' || lower === 'us-ascii') return 'windows-1252';
  return lower;
}

const GUESSABLE = new Set([
  'windows-1252',
  'iso-8859-2',
  'iso-8859-5',
  'iso-8859-7',
  'iso-8859-9',
  'windows-1250',
  'windows-1251',
  'windows-1253',
  'windows-1254',
  'koi8-r',
  'shift_jis',
  'euc-jp',
  'gb18030',
  'big5',
  'euc-kr',
  'iso-8859-8',
  'windows-1255',
  'windows-1256',
]);

/**
 * Decodes bytes as text, or returns null when they are not text (binary content).
 * Nothing is thrown: the caller turns null into the right user-facing reason.
 */
export function decodeText(bytes: Uint8Array): DecodedText | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = bomEncoding(bytes);
  if (bom) {
    const text = new TextDecoder(bom.encoding).decode(bytes.subarray(bom.length));
    return controlRatio(text) > 0.02 ? null : { text, encoding: bom.encoding, hadBom: true };
  }
  const utf16 = utf16WithoutBom(bytes);
  if (utf16) {
    const text = new TextDecoder(utf16).decode(bytes);
    return controlRatio(text) > 0.02 ? null : { text, encoding: utf16, hadBom: false };
  }
  // NUL bytes never appear in 8-bit or UTF-8 text: binary.
  if (bytes.subarray(0, SAMPLE).includes(0)) return null;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return controlRatio(text) > 0.02 ? null : { text, encoding: 'utf-8', hadBom: false };
  } catch {
    // not valid UTF-8 throughout: mostly-UTF-8 with a few stray bytes, or another encoding
  }
  const lenient = new TextDecoder('utf-8').decode(bytes);
  let replaced = 0;
  for (let i = lenient.indexOf('\ufffd'); i >= 0; i = lenient.indexOf('\ufffd', i + 1)) replaced++;
  const multiByte = lenient.length - lenient.replace(/[^\u0080-\uffff]/g, '').length - replaced;
  // Real UTF-8 with a few bad bytes (concatenated files, a cut log line) has many good multi-byte
  // characters and rare replacements; an 8-bit file read as UTF-8 is mostly replacements.
  if (multiByte >= 4 * replaced && replaced <= Math.max(1, lenient.length / 1000)) {
    return controlRatio(lenient) > 0.02
      ? null
      : { text: lenient, encoding: 'utf-8', hadBom: false, replaced };
  }
  const encoding = chooseEncoding(buf.subarray(0, SAMPLE));
  const text = iconv.decode(buf, encoding);
  return controlRatio(text) > 0.02 ? null : { text, encoding, hadBom: false };
}

/**
 * chardet's statistics are weak on short texts (Polish in ISO-8859-2 scores as ISO-8859-1), so its
 * close candidates are decoded and the one whose non-ASCII characters read as letters wins.
 */
function chooseEncoding(sample: Buffer): string {
  const guesses = chardet.analyse(sample);
  const best = guesses[0]?.confidence ?? 0;
  const candidates: string[] = [];
  for (const guess of guesses) {
    const label = normaliseLabel(guess.name);
    if (
      guess.confidence >= best - 15 &&
      GUESSABLE.has(label) &&
      iconv.encodingExists(label) &&
      !candidates.includes(label)
    ) {
      candidates.push(label);
    }
  }
  if (!candidates.includes('windows-1252')) candidates.push('windows-1252');
  let chosen = candidates[0]!;
  let chosenScore = -Infinity;
  for (const label of candidates) {
    const score = plausibility(iconv.decode(sample, label));
    if (score > chosenScore) {
      chosen = label;
      chosenScore = score;
    }
  }
  return chosen;
}

/** +1 per non-ASCII letter, -2 per non-ASCII non-letter stuck between letters (mojibake inside words). */
function plausibility(text: string): number {
  let score = 0;
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c.charCodeAt(0) < 0x80) continue;
    if (/\p{L}/u.test(c)) score += 1;
    else if (/\p{L}/u.test(chars[i - 1] ?? '') && /\p{L}/u.test(chars[i + 1] ?? '')) score -= 2;
    if (c === '\ufffd') score -= 5;
  }
  return score;
}

/** Cheap check on a prefix: could these bytes be text at all? (Used by type detection.) */
export function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SAMPLE);
  if (bomEncoding(head) || utf16WithoutBom(head)) return decodeText(head) !== null;
  if (head.includes(0)) return false;
  // A cut multi-byte sequence at the end of the sample is not a reason to call it binary.
  const trimmed = head.length === SAMPLE ? head.subarray(0, SAMPLE - 4) : head;
  return decodeText(trimmed) !== null;
}

/** True when decoded text starts like an HTML document. */
export function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 2048).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return true;
  if (head.startsWith('<?xml') && head.includes('<html')) return true;
  return head.startsWith('<') && /<(head|body|meta|title)[\s>]/.test(head);
}
