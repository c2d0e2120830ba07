import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBarcodeLookup, gs1Country, validRetailCode } from './barcode-lookup.ts';

// A loopback stand-in for an external product database (Open Food Facts' answer shape).
let server: ReturnType<typeof createServer>;
let base = '';
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url?.includes('5901234123457')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          status: 1,
          product: { product_name: 'Canvas Tote', brands: 'Acme', categories: 'Bags, Totes' },
        }),
      );
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('barcode lookup', () => {
  it('checks EAN-13 check digits and knows the GS1 country', () => {
    expect(validRetailCode('5901234123457')).toBe(true);
    expect(validRetailCode('5901234123458')).toBe(false);
    expect(gs1Country('EAN-13', '5901234123457')).toBe('PL');
    expect(gs1Country('EAN-13', '4006381333931')).toBe('DE');
    expect(gs1Country('QRCode', '4006381333931')).toBe('');
  });

  it('matches the local catalogue first and does not go out', async () => {
    seen.length = 0;
    const lookup = createBarcodeLookup({
      local: async (v) => (v === '5901234123457' ? { productName: 'Our tote', category: 'Totebags' } : null),
      externalUrl: `${base}/product/{code}.json`,
    });
    expect(await lookup.lookup('EAN-13', '5901234123457')).toMatchObject({
      found: true,
      source: 'local',
      productName: 'Our tote',
      originCountry: 'PL',
    });
    expect(seen).toEqual([]);
  });

  it('asks the external provider only when configured, and only for valid product codes', async () => {
    seen.length = 0;
    const off = createBarcodeLookup({});
    expect(await off.lookup('EAN-13', '5901234123457')).toMatchObject({ found: false });
    const on = createBarcodeLookup({ externalUrl: `${base}/product/{code}.json` });
    expect(await on.lookup('EAN-13', '5901234123457')).toMatchObject({
      found: true,
      source: 'external',
      productName: 'Canvas Tote',
      brand: 'Acme',
      category: 'Bags',
    });
    expect(await on.lookup('QRCode', 'https://private.example/secret')).toMatchObject({ found: false });
    expect(await on.lookup('EAN-13', '4006381333931')).toMatchObject({
      found: false,
      source: 'external',
      originCountry: 'DE',
    });
    expect(seen).toEqual(['/product/5901234123457.json', '/product/4006381333931.json']);
  });

  it('never fails the item when the provider is down', async () => {
    const lookup = createBarcodeLookup({ externalUrl: 'http://127.0.0.1:1/{code}', timeoutMs: 500 });
    const r = await lookup.lookup('EAN-13', '5901234123457');
    expect(r.found).toBe(false);
    expect(r.description).toMatch(/lookup failed/);
  });
});
