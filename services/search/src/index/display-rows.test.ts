// OwnerDisplayRows: display rows in an append-only file, read back by key, across flushes, deletes,
// snapshots and a reopen.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OwnerDisplayRows } from './display-rows.ts';
import { HIT_COLUMNS } from './lancedb-rows.ts';

const dirs: string[] = [];
const open: OwnerDisplayRows[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) r.close();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'kaboodle-rows-'));
  dirs.push(d);
  return d;
}
function track(r: OwnerDisplayRows): OwnerDisplayRows {
  open.push(r);
  return r;
}

function row(i: number, extra = ''): Record<string, unknown> {
  return {
    key: `["owner","document","d${i}"]`,
    id: `d${i}`,
    entity_type: i % 3 ? 'document' : 'inventory_item',
    title: `Title ${i} ${extra}`,
    description: `Ünïcödé description ${i} — “quoted” 東京`,
    content_head: `content ${i} `.repeat(40),
    url: `https://example.test/${i}`,
    image_url: '',
    category: i % 2 ? 'Science' : '',
    hashtags: i % 4 ? ['one', `t${i}`] : [],
  };
}

describe('OwnerDisplayRows', () => {
  it('keeps rows in its file, not on the heap, and reads each back exactly', async () => {
    const dir = await tmp();
    const rows = track(new OwnerDisplayRows(dir));
    for (let i = 0; i < 3_000; i++) rows.set(`k${i}`, row(i));
    expect(rows.size).toBe(3_000);
    for (const i of [0, 1, 2, 1_499, 2_999]) expect(rows.get(`k${i}`)).toEqual(row(i));
    expect(Object.keys(rows.get('k7')!)).toEqual(HIT_COLUMNS);
    expect(rows.get('missing')).toBeUndefined();
    const { heap, file } = rows.memory();
    expect(file).toBeGreaterThan(1_000_000); // ~700 bytes a row went to the file
    expect(heap).toBeLessThan(file / 4);
  });

  it('follows rewrites and deletes, flushed or still pending', async () => {
    const rows = track(new OwnerDisplayRows(await tmp()));
    for (let i = 0; i < 1_000; i++) rows.set(`k${i}`, row(i));
    rows.flush();
    rows.set('k1', row(1, 'rewritten')); // pending
    rows.set('k2', row(2, 'rewritten'));
    rows.flush(); // on file
    rows.delete('k3'); // was on file
    rows.set('k4', row(4, 'pending'));
    rows.delete('k4'); // was pending
    rows.delete('k4');
    rows.delete('never');
    expect(rows.size).toBe(998);
    expect(rows.get('k1')).toEqual(row(1, 'rewritten'));
    expect(rows.get('k2')).toEqual(row(2, 'rewritten'));
    expect(rows.get('k3')).toBeUndefined();
    expect(rows.get('k4')).toBeUndefined();
    rows.set('k3', row(3, 'back'));
    expect(rows.size).toBe(999);
    expect(rows.get('k3')).toEqual(row(3, 'back'));
  });

  it('reads rows back after a reopen from its snapshot, and takes writes after', async () => {
    const dir = await tmp();
    const rows = track(new OwnerDisplayRows(dir));
    for (let i = 0; i < 2_000; i++) rows.set(`k${i}`, row(i));
    rows.delete('k5');
    await rows.saveTo(dir);
    rows.set('after-save', row(9)); // not in the snapshot
    rows.flush();
    rows.close();
    const back = track(await OwnerDisplayRows.loadFrom(dir));
    expect(back.size).toBe(1_999);
    for (const i of [0, 6, 1_999]) expect(back.get(`k${i}`)).toEqual(row(i));
    expect(back.get('k5')).toBeUndefined();
    expect(back.get('after-save')).toBeUndefined();
    back.set('k6', row(6, 'new'));
    back.flush();
    expect(back.get('k6')).toEqual(row(6, 'new'));
    expect(back.get('k7')).toEqual(row(7));
    // a second save replaces the first snapshot's data file
    await back.saveTo(dir);
    const files = await readdir(dir);
    expect(files.filter((f) => f.startsWith('display-rows-data-'))).toHaveLength(1);
    const again = track(await OwnerDisplayRows.loadFrom(dir));
    expect(again.get('k6')).toEqual(row(6, 'new'));
  });

  it('rejects a snapshot whose data file is truncated or whose header is damaged', async () => {
    const dir = await tmp();
    const rows = track(new OwnerDisplayRows(dir));
    for (let i = 0; i < 100; i++) rows.set(`k${i}`, row(i));
    await rows.saveTo(dir);
    const data = path.join(
      dir,
      (await readdir(dir)).find((f) => f.startsWith('display-rows-data-'))!,
    );
    await truncate(data, 1_000);
    await expect(OwnerDisplayRows.loadFrom(dir)).rejects.toThrow(/truncated/);
    await writeFile(path.join(dir, 'display-rows.json'), '{"kind":');
    await expect(OwnerDisplayRows.loadFrom(dir)).rejects.toThrow(/header unreadable/);
  });

  it('removes its live file on close, and a new build removes one an earlier process left', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, 'rows-live-1-dead.dat'), 'left by a crash');
    const rows = new OwnerDisplayRows(dir);
    rows.set('k', row(1));
    rows.flush();
    const live = (await readdir(dir)).filter((f) => f.startsWith('rows-live-'));
    expect(live).toHaveLength(1);
    expect(live[0]).not.toBe('rows-live-1-dead.dat');
    expect((await readFile(path.join(dir, live[0]!), 'utf8')).length).toBeGreaterThan(0);
    rows.close();
    expect(existsSync(path.join(dir, live[0]!))).toBe(false);
  });
});
