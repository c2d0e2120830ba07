// Pixel dimensions read from a PNG or JPEG header without decoding the image: the guard that
// runs before sharp allocates anything (a 30k×30k PNG is 900 megapixels once decoded).

export interface ImageHeader {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
}

export class ImageHeaderError extends Error {}

export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0x89 && bytes[1] === 0x50) {
    // Signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4).
    if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') {
      throw new ImageHeaderError('PNG header is missing');
    }
    return { format: 'png', width: dv.getUint32(16), height: dv.getUint32(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let p = 2;
    while (p + 4 <= bytes.length) {
      if (bytes[p] !== 0xff) throw new ImageHeaderError('JPEG marker expected');
      const marker = bytes[p + 1]!;
      if (marker === 0xff) {
        p += 1; // fill byte
        continue;
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        p += 2;
        continue;
      }
      const length = dv.getUint16(p + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (p + 9 > bytes.length) break;
        return { format: 'jpeg', height: dv.getUint16(p + 5), width: dv.getUint16(p + 7) };
      }
      if (marker === 0xda || marker === 0xd9) break; // scan data before any frame header
      p += 2 + length;
    }
    throw new ImageHeaderError('JPEG frame header not found');
  }
  throw new ImageHeaderError('not a PNG or JPEG');
}
