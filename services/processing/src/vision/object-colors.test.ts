// The object's colour on a backdrop of several colours (sky above, floor below), where a palette of
// the whole photo names the backdrop: the real photos' red motorcycle was "brown" (its floor); and
// on a white sweep with a soft shadow, which the real photos' spider had named "grey".
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { dominantColors } from './colors.ts';
import { objectColors } from './object-colors.ts';

const RED = ['red', 'crimson', 'maroon', 'burgundy'];

async function redThingOnSkyAndFloor(): Promise<Buffer> {
  const w = 400;
  const h = 300;
  const block = (width: number, height: number, color: string) =>
    sharp({ create: { width, height, channels: 3, background: color } })
      .png()
      .toBuffer();
  return sharp({ create: { width: w, height: h, channels: 3, background: '#26365f' } })
    .composite([
      { input: await block(w, h / 2, '#8c877f'), left: 0, top: h / 2 },
      { input: await block(110, 80, '#c42028'), left: 145, top: 110 },
      { input: await block(150, 20, '#1c1c1c'), left: 125, top: 190 },
    ])
    .png()
    .toBuffer();
}

/** A brown box on a white sweep, in a soft grey shadow wider than itself. */
async function brownThingInItsShadow(): Promise<Buffer> {
  const side = 400;
  const sweep = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><rect width="${side}" height="${side}" fill="#f4f4f4"/><ellipse cx="200" cy="230" rx="105" ry="95" fill="#8c8c8c"/></svg>`,
    ),
  )
    .blur(18)
    .png()
    .toBuffer();
  const box = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#7b4a2a' } })
    .png()
    .toBuffer();
  return sharp(sweep)
    .composite([{ input: box, left: 140, top: 140 }])
    .png()
    .toBuffer();
}

describe('objectColors', () => {
  it('leaves out a shadow that fades into the backdrop', async () => {
    const colors = await objectColors(await brownThingInItsShadow());
    expect(colors[0]?.name).toBe('brown');
    // The ring rule alone kept the shadow: "grey" 31 % and "silver" 15 % beside the brown.
    expect(colors.map((c) => c.name)).toEqual(['brown']);
  });

  it('names the object, not a backdrop of two colours', async () => {
    const photo = await redThingOnSkyAndFloor();
    const colors = await objectColors(photo);
    expect(RED).toContain(colors[0]?.name);
    expect(colors.map((c) => c.name)).not.toContain('navy');
    // The palette of the whole photo named the backdrop first.
    expect(RED).not.toContain((await dominantColors(photo))[0]?.name);
  });

  it('reads inside the detector’s box, and names an object the colour of its backdrop', async () => {
    const photo = await redThingOnSkyAndFloor();
    const inBox = await objectColors(photo, { left: 140, top: 105, width: 120, height: 90 });
    expect(RED).toContain(inBox[0]?.name);
    const plain = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#fafafa' } })
      .png()
      .toBuffer();
    expect((await objectColors(plain))[0]?.name).toBe('white');
  });
});

/** An object in two tones on a white sweep: `shade` over its left 60 %, `lit` over the rest. */
async function halfInShade(shade: string, lit: string): Promise<Buffer> {
  const part = (width: number, color: string) =>
    sharp({ create: { width, height: 160, channels: 3, background: color } })
      .png()
      .toBuffer();
  return sharp({ create: { width: 400, height: 300, channels: 3, background: '#f4f4f4' } })
    .composite([
      { input: await part(120, shade), left: 100, top: 70 },
      { input: await part(80, lit), left: 220, top: 70 },
    ])
    .png()
    .toBuffer();
}

describe('a main colour in shade', () => {
  it('names a pink object by its lit part, not its shaded burgundy one', async () => {
    const colours = await objectColors(await halfInShade('#6c1d3a', '#ba2f79'));
    expect(['pink', 'magenta', 'rose']).toContain(colours[0]?.name);
    expect(colours[0]?.share).toBeGreaterThan(0.9);
  });

  it('names navy uniforms in shade navy, not black', async () => {
    const colours = await objectColors(await halfInShade('#0f0f15', '#202c4f'));
    expect(['navy', 'blue']).toContain(colours[0]?.name);
  });

  it('keeps a black object black beside a lit part of another hue', async () => {
    const colours = await objectColors(await halfInShade('#111111', '#c42028'));
    expect(colours[0]?.name).toBe('black');
    const bluish = await objectColors(await halfInShade('#10121a', '#c42028'));
    expect(bluish[0]?.name).toBe('black');
  });
});
