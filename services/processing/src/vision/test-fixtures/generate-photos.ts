// Item photos drawn offline (SVG rendered by sharp, codes by bwip-js) for the vision tests, the
// evaluation set and the benchmarks. Simple shapes, but real JPEG/PNG bytes with real colours,
// printed labels and scannable codes.
import bwipjs from 'bwip-js';
import sharp from 'sharp';

export interface PhotoFixture {
  name: string;
  fileName: string;
  bytes: Buffer;
  /** What a correct analysis finds. */
  expected: {
    category: string;
    /** Colour names any of which is right for the main colour. */
    colors: string[];
    barcodes?: string[];
    material?: string;
  };
  /** Text printed on the photo's label (what OCR would read), for tests that skip OCR. */
  label?: string;
  instructions?: string;
}

const W = 640;
const H = 640;

function svg(body: string, background = '#eeeeee'): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="${background}"/>${body}</svg>`,
  );
}

function labelSvg(text: string, x: number, y: number, size = 30): string {
  return `<rect x="${x - 10}" y="${y - size - 6}" width="${text.length * size * 0.6 + 20}" height="${size + 18}" fill="#ffffff"/><text x="${x}" y="${y}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" fill="#111111">${text}</text>`;
}

async function code(bcid: string, text: string, scale = 3): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid,
    text,
    scale,
    height: 14,
    includetext: bcid !== 'qrcode',
    backgroundcolor: 'FFFFFF',
    paddingwidth: 8,
    paddingheight: 8,
  });
}

export async function redBowl(): Promise<PhotoFixture> {
  const body = `<ellipse cx="320" cy="380" rx="230" ry="120" fill="#c0392b"/><rect x="90" y="300" width="460" height="80" fill="#c0392b"/><ellipse cx="320" cy="300" rx="230" ry="55" fill="#7b241c"/><ellipse cx="320" cy="505" rx="90" ry="18" fill="#922b21"/>`;
  return {
    name: 'red bowl',
    fileName: 'IMG_0001.jpg',
    bytes: await sharp(svg(body)).jpeg({ quality: 90 }).toBuffer(),
    expected: { category: 'Bowls', colors: ['red', 'crimson', 'maroon', 'terracotta', 'burgundy'] },
    label: 'Handmade ceramic bowl 25 cm diameter',
  };
}

export async function blueToteWithCodes(): Promise<PhotoFixture> {
  const body = `<path d="M170 220 L470 220 L510 600 L130 600 Z" fill="#2874a6"/><path d="M240 220 Q320 60 400 220" stroke="#1b4f72" stroke-width="22" fill="none"/>`;
  const qr = await code('qrcode', 'https://kaboodle.example/items/tote-42', 4);
  const ean = await code('ean13', '5901234123457', 2);
  const bytes = await sharp(svg(body))
    .composite([
      { input: qr, top: 280, left: 230 },
      { input: ean, top: 470, left: 300 },
    ])
    .png()
    .toBuffer();
  return {
    name: 'blue tote with QR and EAN-13',
    fileName: 'tote-bag.png',
    bytes,
    expected: {
      category: 'Totebags',
      colors: ['blue', 'navy', 'sky blue', 'teal'],
      barcodes: ['https://kaboodle.example/items/tote-42', '5901234123457'],
    },
  };
}

export async function teakStool(): Promise<PhotoFixture> {
  const body = `<rect x="140" y="200" width="360" height="50" rx="12" fill="#8e5b34"/><rect x="170" y="250" width="34" height="280" fill="#6e4424"/><rect x="436" y="250" width="34" height="280" fill="#6e4424"/><rect x="300" y="250" width="34" height="260" fill="#7b4a2a"/>${labelSvg('TEAK STOOL 45 cm tall', 150, 610, 28)}`;
  return {
    name: 'teak stool',
    fileName: 'photo-17.jpg',
    bytes: await sharp(svg(body, '#f4f1ea')).jpeg({ quality: 90 }).toBuffer(),
    expected: {
      category: 'Stools',
      colors: ['brown', 'chocolate', 'tan', 'terracotta', 'maroon'],
      material: 'wood',
    },
    label: 'TEAK STOOL 45 cm tall',
  };
}

export async function beadNecklace(): Promise<PhotoFixture> {
  const colors = ['#f1c40f', '#e67e22', '#16a085', '#f1c40f', '#e67e22', '#16a085'];
  let beads = '';
  for (let i = 0; i < 26; i++) {
    const a = Math.PI * (0.1 + (0.8 * i) / 25);
    beads += `<circle cx="${320 + 220 * Math.cos(a)}" cy="${150 + 300 * Math.sin(a)}" r="20" fill="${colors[i % colors.length]}"/>`;
  }
  return {
    name: 'bead necklace',
    fileName: 'beaded-necklace.jpg',
    bytes: await sharp(svg(beads, '#fdfefe')).jpeg({ quality: 90 }).toBuffer(),
    expected: {
      category: 'Beads',
      colors: ['yellow', 'amber', 'gold', 'orange', 'teal', 'mustard', 'green', 'turquoise'],
    },
  };
}

export async function handFan(): Promise<PhotoFixture> {
  let ribs = '';
  for (let i = 0; i <= 12; i++) {
    const a = Math.PI * (1 + i / 12);
    ribs += `<line x1="320" y1="480" x2="${320 + 260 * Math.cos(a)}" y2="${480 + 260 * Math.sin(a)}" stroke="#5b2c6f" stroke-width="6"/>`;
  }
  const body = `<path d="M60 480 A260 260 0 0 1 580 480 Z" fill="#8e44ad"/>${ribs}<rect x="305" y="480" width="30" height="120" fill="#6e2c00"/>`;
  return {
    name: 'purple hand fan',
    fileName: 'woven-hand-fan.jpg',
    bytes: await sharp(svg(body)).jpeg({ quality: 90 }).toBuffer(),
    expected: { category: 'Fans', colors: ['purple', 'violet', 'indigo', 'magenta'] },
    instructions: 'material: raffia',
  };
}

export async function greenVase(): Promise<PhotoFixture> {
  const body = `<path d="M260 120 L380 120 L370 200 Q480 300 420 520 L220 520 Q160 300 270 200 Z" fill="#1e8449"/><rect x="250" y="105" width="140" height="25" rx="6" fill="#145a32"/>`;
  return {
    name: 'green vase',
    fileName: 'IMG_2231.jpg',
    bytes: await sharp(svg(body)).jpeg({ quality: 90 }).toBuffer(),
    expected: { category: 'Home Decor', colors: ['green', 'forest green', 'teal'] },
    label: 'Glass vase - home decor',
  };
}

export async function allPhotos(): Promise<PhotoFixture[]> {
  return Promise.all([redBowl(), blueToteWithCodes(), teakStool(), beadNecklace(), handFan(), greenVase()]);
}

export async function woodenBowlWithLabel(): Promise<PhotoFixture> {
  const body = `<ellipse cx="320" cy="330" rx="240" ry="150" fill="#9c6b3c"/><ellipse cx="320" cy="300" rx="200" ry="100" fill="#6f4a27"/><ellipse cx="320" cy="290" rx="150" ry="70" fill="#a97a48"/>${labelSvg('Mango wood bowl 30 cm', 120, 600, 30)}`;
  return {
    name: 'wooden bowl with label',
    fileName: 'DSC_0412.jpg',
    bytes: await sharp(svg(body, '#f7f7f2')).jpeg({ quality: 90 }).toBuffer(),
    expected: {
      category: 'Bowls',
      colors: ['brown', 'tan', 'chocolate', 'terracotta', 'khaki'],
      material: 'wood',
    },
    label: 'Mango wood bowl 30 cm',
  };
}

export async function blackBarStool(): Promise<PhotoFixture> {
  const body = `<ellipse cx="320" cy="160" rx="150" ry="40" fill="#222222"/><rect x="300" y="160" width="40" height="330" fill="#333333"/><ellipse cx="320" cy="520" rx="130" ry="30" fill="#1c1c1c"/><rect x="220" y="360" width="200" height="14" fill="#444444"/>`;
  return {
    name: 'black bar stool',
    fileName: 'bar-stool-black.jpg',
    bytes: await sharp(svg(body, '#fafafa')).jpeg({ quality: 90 }).toBuffer(),
    expected: { category: 'Stools', colors: ['black', 'charcoal'] },
  };
}

export async function redToteWithLabel(): Promise<PhotoFixture> {
  const body = `<path d="M160 230 L480 230 L500 590 L140 590 Z" fill="#c0392b"/><path d="M230 230 Q320 70 410 230" stroke="#7b241c" stroke-width="22" fill="none"/>${labelSvg('Cotton canvas 38 x 42 cm', 150, 420, 24)}`;
  return {
    name: 'red tote with size label',
    fileName: 'IMG_5540.jpg',
    bytes: await sharp(svg(body)).jpeg({ quality: 90 }).toBuffer(),
    expected: {
      category: 'Totebags',
      colors: ['red', 'crimson', 'maroon', 'terracotta', 'burgundy'],
      material: 'cotton canvas',
    },
    label: 'Cotton canvas 38 x 42 cm',
    instructions: 'This is a tote bag from the market collection.',
  };
}

export async function beadBraceletWithCode(): Promise<PhotoFixture> {
  let beads = '';
  for (let i = 0; i < 18; i++) {
    const a = (2 * Math.PI * i) / 18;
    beads += `<circle cx="${320 + 150 * Math.cos(a)}" cy="${260 + 150 * Math.sin(a)}" r="24" fill="${i % 2 ? '#2e86c1' : '#f4f6f7'}" stroke="#1b4f72" stroke-width="3"/>`;
  }
  const ean = await code('ean13', '4006381333931', 2);
  return {
    name: 'bead bracelet with EAN',
    fileName: 'bracelet.png',
    bytes: await sharp(svg(beads, '#fdebd0'))
      .composite([{ input: ean, top: 460, left: 210 }])
      .png()
      .toBuffer(),
    expected: {
      category: 'Beads',
      colors: ['blue', 'sky blue', 'navy', 'white', 'light grey'],
      barcodes: ['4006381333931'],
    },
  };
}

/** The ten photos of the evaluation set. */
export async function evalPhotos(): Promise<PhotoFixture[]> {
  return [
    ...(await allPhotos()),
    await woodenBowlWithLabel(),
    await blackBarStool(),
    await redToteWithLabel(),
    await beadBraceletWithCode(),
  ];
}

/** A PNG whose header claims 30000×30000 pixels (the bad-input case), without the pixels. */
export async function giantImageHeader(): Promise<Buffer> {
  const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  const out = Buffer.from(small);
  out.writeUInt32BE(30000, 16);
  out.writeUInt32BE(30000, 20);
  return out;
}
