// "Save as image" for the grid view (docs/product.md#document-vault: the grid can be saved as an image): the
// cards are drawn onto a canvas in the theme's colours and downloaded as a PNG. Drawn, not screenshotted, so
// the picture holds every loaded card, not only the ones on screen.
import type { VaultDocument } from '../document-types.ts';

const CARD_W = 360;
const CARD_H = 250;
const GAP = 24;
const PAD = 40;
const HEADER = 90;

const COLORS = {
  bg: '#0b0d1a',
  card: '#151936',
  line: 'rgba(245, 197, 66, 0.6)',
  gold: '#f5c542',
  teal: '#2ee6d6',
  text: '#efeadb',
  muted: '#a3a8c3',
};

/** Splits text into at most `maxLines` lines that fit `width`, the last one ending in "…" if cut. */
export function wrapText(
  measure: (s: string) => number,
  text: string,
  width: number,
  maxLines: number,
): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const candidate = line ? `${line} ${words[i]}` : words[i]!;
    if (measure(candidate) <= width || line === '') {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = words[i]!;
    if (lines.length === maxLines) {
      line = '';
      break;
    }
  }
  if (line && lines.length < maxLines) lines.push(line);
  const used = lines.join(' ').split(/\s+/).filter(Boolean).length;
  if (used < words.length && lines.length > 0) {
    let last = lines[lines.length - 1]!;
    while (last.length > 1 && measure(`${last}…`) > width) last = last.slice(0, -1);
    lines[lines.length - 1] = `${last.trimEnd()}…`;
  }
  return lines;
}

export function gridColumns(count: number): number {
  return Math.max(1, Math.min(4, Math.ceil(Math.sqrt(count))));
}

export function drawGrid(canvas: HTMLCanvasElement, docs: readonly VaultDocument[], title: string): void {
  const cols = gridColumns(docs.length);
  const rows = Math.max(1, Math.ceil(docs.length / cols));
  const width = PAD * 2 + cols * CARD_W + (cols - 1) * GAP;
  const height = PAD * 2 + HEADER + rows * CARD_H + (rows - 1) * GAP;
  // Crisp on high-density screens, within the browser's canvas size limit.
  const scale = height * 2 <= 32_000 ? 2 : 1;
  canvas.width = width * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  ctx.scale(scale, scale);
  const font = (size: number, weight = 400) =>
    `${weight} ${size}px "DejaVu Sans", "Segoe UI", system-ui, sans-serif`;

  ctx.fillStyle = COLORS.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = COLORS.gold;
  ctx.font = font(30, 700);
  ctx.fillText(title, PAD, PAD + 34);
  ctx.fillStyle = COLORS.muted;
  ctx.font = font(14);
  ctx.fillText(`${docs.length} document(s) · ${new Date().toLocaleDateString()}`, PAD, PAD + 62);

  docs.forEach((doc, i) => {
    const x = PAD + (i % cols) * (CARD_W + GAP);
    const y = PAD + HEADER + Math.floor(i / cols) * (CARD_H + GAP);
    ctx.fillStyle = COLORS.card;
    ctx.strokeStyle = COLORS.line;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.roundRect(x, y, CARD_W, CARD_H, 10);
    ctx.fill();
    ctx.stroke();
    // Art Deco corner steps
    ctx.strokeStyle = COLORS.gold;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x - 3, y + 16);
    ctx.lineTo(x - 3, y - 3);
    ctx.lineTo(x + 16, y - 3);
    ctx.moveTo(x + CARD_W + 3, y + CARD_H - 16);
    ctx.lineTo(x + CARD_W + 3, y + CARD_H + 3);
    ctx.lineTo(x + CARD_W - 16, y + CARD_H + 3);
    ctx.stroke();

    const inner = CARD_W - 32;
    let cy = y + 34;
    ctx.fillStyle = COLORS.gold;
    ctx.font = font(17, 700);
    for (const line of wrapText((s) => ctx.measureText(s).width, doc.title || 'Untitled', inner, 2)) {
      ctx.fillText(line, x + 16, cy);
      cy += 22;
    }
    ctx.fillStyle = COLORS.teal;
    ctx.font = font(13);
    const meta = [doc.author, doc.publication_year ?? '', doc.category]
      .filter((v) => v !== '' && v !== null)
      .join(' · ');
    ctx.fillText(wrapText((s) => ctx.measureText(s).width, meta, inner, 1)[0] ?? '', x + 16, cy + 2);
    cy += 26;
    ctx.fillStyle = COLORS.text;
    ctx.font = font(13);
    for (const line of wrapText((s) => ctx.measureText(s).width, doc.summary, inner, 5)) {
      ctx.fillText(line, x + 16, cy);
      cy += 18;
    }
    ctx.fillStyle = COLORS.muted;
    ctx.font = font(12);
    const tags = [...doc.hashtags]
      .sort((a, b) => b.relevancy - a.relevancy)
      .slice(0, 4)
      .map((t) => `#${t.tag.replace(/^#/, '')} ${Math.round(t.relevancy * 100)}%`)
      .join('  ');
    ctx.fillText(wrapText((s) => ctx.measureText(s).width, tags, inner, 1)[0] ?? '', x + 16, y + CARD_H - 18);
  });
}

/** A canvas taller than ~32k px fails in browsers: the picture holds the first cards. */
export const MAX_IMAGE_CARDS = 200;

export async function saveGridImage(docs: readonly VaultDocument[], title: string): Promise<void> {
  const canvas = document.createElement('canvas');
  drawGrid(canvas, docs.slice(0, MAX_IMAGE_CARDS), title);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the canvas produced no image');
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `kaboodle-documents-grid-${new Date().toISOString().slice(0, 10)}.png`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
