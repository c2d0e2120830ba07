// Inventory export and import over real HTTP: CSV and JSON exports of the filter or a selection
// with formula-looking cells guarded, the export imported into another account (fields, not
// photos), header mapping for Homebox and InvenTree spreadsheets, per-row problems with their line
// numbers and nothing half-imported, and files too large or without a name column refused.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { createCatalogueClient, solidPng } from './support/catalogue-client.ts';

interface Item {
  id: string;
  name: string;
  description: string;
  category: string;
  material: string;
  origin_source: string;
  import_cost: number | null;
  retail_price: number | null;
  hashtags: { tag: string }[];
  image_url: string | null;
  source_file_id: string | null;
}
interface Report {
  columns: string[];
  mapping: Record<string, string>;
  rows: number;
  valid: number;
  errors: { line: number; message: string }[];
  preview: { line: number; fields: Record<string, unknown>; errors: string[] }[];
  imported: number;
  ids: string[];
  message: string;
}
interface ErrorBody {
  message: string;
}

describe('inventory export and import', () => {
  const data = tempDataDir('kaboodle-inventory-transfer-');
  let app: KaboodleProcess;
  const api = createCatalogueClient(() => app.url);
  let alice: string;
  let bob: string;
  let carol: string;
  let item: string;
  let other: string;

  beforeAll(async () => {
    // embedded engines, stated: the api tier runs files side by side, and two products on CI's
    // shared Kafka and Postgres would take each other's events (the topology tier covers those)
    app = await startKaboodleProcess({
      target: 'all',
      env: { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' },
    });
    [alice, bob, carol] = await Promise.all([
      api.register('alice'),
      api.register('bob'),
      api.register('carol'),
    ]);
    item = await api.upload(
      alice,
      { bytes: solidPng(80, 80, [200, 30, 30]), name: 'red.png', type: 'image/png' },
      'inventory',
    );
    other = await api.upload(
      alice,
      { bytes: solidPng(80, 80, [30, 30, 200]), name: 'blue.png', type: 'image/png' },
      'inventory',
    );
    for (const id of [item, other]) expect((await api.settled(alice, id)).status).toBe('completed');
    // cells a spreadsheet would run as formulas
    await api.request('PATCH', `/api/inventory/${item}`, alice, {
      name: '=HYPERLINK("http://evil.example","click")',
      description: '+1 glazed, "wide" rim, 2 handles',
      material: '-stoneware',
      origin_source: '@Nairobi',
      category: 'Bowls',
      import_cost: 4.25,
      retail_price: 1234.5,
      hashtags: ['bowls', 'red'],
    });
    await api.request('PATCH', `/api/inventory/${other}`, alice, { name: 'Blue fan', category: 'Fans' });
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  const get = <T>(token: string, path: string) => api.request<T>('GET', path, token);
  const importCsv = (token: string, body: unknown) =>
    api.request<Report & ErrorBody>('POST', '/api/inventory/import', token, body);

  it('exports the filtered items as CSV with formula-looking cells guarded', async () => {
    const res = await get(alice, '/api/inventory/export?format=csv&sort=name');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename=kaboodle-inventory-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    expect(res.headers.get('x-total-count')).toBe('2');
    const rows = parse(res.text) as string[][];
    expect(rows[0]).toEqual([
      'id',
      'name',
      'description',
      'category',
      'material',
      'color',
      'dimensions',
      'origin_source',
      'import_cost',
      'retail_price',
      'currency',
      'hashtags',
      'file_name',
      'created_at',
      'updated_at',
    ]);
    const red = rows.find((r) => r[0] === item)!;
    expect(red[1]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(red[2]).toBe(`'+1 glazed, "wide" rim, 2 handles`);
    expect(red[4]).toBe(`'-stoneware`);
    expect(red[7]).toBe(`'@Nairobi`);
    expect([red[8], red[9], red[11]]).toEqual(['4.25', '1234.5', 'bowls; red']);
    const bowls = parse((await get(alice, '/api/inventory/export?category=Fans')).text) as string[][];
    expect(bowls.slice(1).map((r) => r[0])).toEqual([other]);
  });

  it('exports JSON and a selection, and nothing of another user', async () => {
    const json = await get(alice, `/api/inventory/export?format=json&ids=${other}`);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const list = JSON.parse(json.text) as Item[];
    expect(list.map((i) => i.id)).toEqual([other]);
    expect(list[0]!.name).toBe('Blue fan');
    const foreign = JSON.parse(
      (await get(bob, `/api/inventory/export?format=json&ids=${item},${other}`)).text,
    );
    expect(foreign).toEqual([]);
    const bad = await get<ErrorBody>(alice, '/api/inventory/export?format=xml');
    expect([bad.status, bad.body.message]).toEqual([400, 'format must be csv or json']);
  });

  it('previews the CSV export in another account, then imports its fields (not photos)', async () => {
    // sorted by name, so the rows' lines are known whatever order processing stored them in
    const csv = (await get(alice, '/api/inventory/export?format=csv&sort=name')).text;
    const preview = await importCsv(bob, { csv, file_name: 'from-alice.csv', dry_run: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ rows: 2, valid: 2, imported: 0, errors: [] });
    expect(preview.body.mapping).toMatchObject({
      name: 'name',
      retail_price: 'retail_price',
      id: '',
      file_name: '',
    });
    expect((await get<Item[]>(bob, '/api/inventory')).body).toEqual([]);

    const done = await importCsv(bob, { csv, file_name: 'from-alice.csv' });
    expect(done.status).toBe(201);
    expect(done.body.imported).toBe(2);
    const mine = (await get<Item[]>(bob, '/api/inventory?sort=name')).body;
    expect(mine.map((i) => i.name)).toEqual(['=HYPERLINK("http://evil.example","click")', 'Blue fan']);
    const red = mine[0]!;
    expect(red).toMatchObject({
      description: '+1 glazed, "wide" rim, 2 handles',
      material: '-stoneware',
      origin_source: '@Nairobi',
      category: 'Bowls',
      import_cost: 4.25,
      retail_price: 1234.5,
      image_url: null,
      source_file_id: null,
    });
    expect(red.id).not.toBe(item);
    expect(red.hashtags.map((h) => h.tag)).toEqual(['bowls', 'red']);
    const detail = (
      await get<{ provenance: Record<string, { source: string; evidence: string }> }>(
        bob,
        `/api/inventory/${red.id}`,
      )
    ).body;
    expect(detail.provenance.name).toMatchObject({ source: 'import', evidence: 'from-alice.csv, line 2' });
    // exporting the import again gives the same cells
    // the gallery asks for items with a photo only: imported ones have none
    expect((await get<Item[]>(bob, '/api/inventory?has_image=true')).body).toEqual([]);
    expect((await get<Item[]>(alice, '/api/inventory?has_image=true')).body).toHaveLength(2);
    const again = parse((await get(bob, '/api/inventory/export?sort=name')).text) as string[][];
    expect(again[1]![1]).toBe(`'=HYPERLINK("http://evil.example","click")`);
  });

  it('maps Homebox and InvenTree headers to item fields', async () => {
    const homebox = [
      'HB.import_ref,HB.location,HB.labels,HB.name,HB.quantity,HB.description,HB.purchase_price,HB.purchase_from',
      ',Shelf A,"beads; glass",Glass bead string,3,Hand-rolled,$12.50,Accra market',
    ].join('\n');
    const hb = await importCsv(carol, { csv: homebox, dry_run: true });
    expect(hb.status).toBe(200);
    expect(hb.body.mapping).toMatchObject({
      'HB.name': 'name',
      'HB.description': 'description',
      'HB.purchase_price': 'import_cost',
      'HB.purchase_from': 'origin_source',
      'HB.labels': 'hashtags',
      'HB.location': '',
    });
    expect(hb.body.preview[0]!.fields).toMatchObject({
      name: 'Glass bead string',
      import_cost: 12.5,
      origin_source: 'Accra market',
    });
    const inventree =
      'Part ID,Name,Description,Category,Keywords,IPN\n17,Palm fan,Woven,fans,"summer, woven",FAN-1\n';
    const it2 = await importCsv(carol, { csv: inventree, dry_run: true });
    expect(it2.body.mapping).toMatchObject({
      Name: 'name',
      Category: 'category',
      Keywords: 'hashtags',
      IPN: '',
    });
    expect(it2.body.preview[0]!.fields).toMatchObject({ name: 'Palm fan', category: 'Fans' });
    const mapped = await importCsv(carol, {
      csv: 'Thing,Cost\nStool,5\n',
      mapping: { Thing: 'name', Cost: 'retail_price' },
      dry_run: true,
    });
    expect(mapped.body.preview[0]!.fields).toEqual({ name: 'Stool', retail_price: 5 });
  });

  it('lists every bad row with its line and imports nothing', async () => {
    const csv = [
      'Name,Retail Price,Currency',
      'Good bowl,10,USD',
      ',5,USD',
      '"Two-line',
      'name",abc,USD',
      'Fine fan,7,dollars',
    ].join('\r\n');
    const res = await importCsv(carol, { csv });
    expect(res.status).toBe(422);
    expect(res.body.imported).toBe(0);
    expect(res.body.message).toBe('3 rows have problems; nothing was imported. Fix them and try again.');
    expect(res.body.errors.map((e) => e.message)).toEqual([
      'Line 3: Name (the name) is empty',
      'Line 4: Retail Price "abc" is not an amount',
      'Line 6: Currency "dollars" is not a three-letter code',
    ]);
    expect((await get<Item[]>(carol, '/api/inventory')).body).toEqual([]);
  });

  it('refuses a CSV with no name column, an unreadable one, and one too large', async () => {
    const wrong = await importCsv(carol, { csv: 'colour,size\nred,big\n' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      'The CSV has no column for the item name (columns: colour, size). Name a column "Name", or map one to name.',
    );
    const broken = await importCsv(carol, { csv: 'Name,Price\n"unclosed,5\n' });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^The CSV file cannot be read/);
    const empty = await importCsv(carol, { csv: '' });
    expect([empty.status, empty.body.message]).toEqual([
      400,
      'The CSV file is empty: the first line must name the columns',
    ]);
    const badMap = await importCsv(carol, { csv: 'Name\nx\n', mapping: { Name: 'colour' } });
    expect(badMap.status).toBe(400);
    expect(badMap.body.message).toMatch(/^mapping must map CSV columns to one of name/);
    const row = 'Bead,1.00,' + 'x'.repeat(90) + '\n';
    const huge = 'Name,Price,Notes\n' + row.repeat(Math.ceil((50 * 1024 * 1024) / row.length));
    const big = await importCsv(carol, { csv: huge });
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/^Request body is too large/);
    const justOver = 'Name\n' + 'x\n'.repeat(5_300_000);
    const over = await importCsv(carol, { csv: justOver });
    expect([over.status, over.body.message]).toEqual([
      400,
      'The CSV file is larger than 10 MB; split it into smaller files',
    ]);
    expect((await get<Item[]>(carol, '/api/inventory')).body).toEqual([]);
  });
});
