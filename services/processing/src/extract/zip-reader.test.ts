// The central-directory reader and the bomb rules, on archives written byte by byte.
import { describe, expect, it } from 'vitest';
import {
  ZipFormatError,
  readZipDirectory,
  readZipEntry,
  verifyZipEntries,
  zipBombReason,
} from './zip-reader.ts';
import { writeZip } from './test-fixtures/generate-containers.ts';
import { parsePdfDate } from './pdf-extractor.ts';

const budget = { maxUncompressedBytes: 10 * 1024 * 1024, maxRatio: 100, maxEntries: 50 };

describe('readZipDirectory', () => {
  it('lists entries with their sizes and reads one back', () => {
    const data = Buffer.from('hello hello hello hello hello');
    const zip = writeZip([
      { name: 'a.txt', data },
      { name: 'dir/b.bin', data: Buffer.from([1, 2, 3]), method: 0 },
    ]);
    const entries = readZipDirectory(zip);
    expect(entries.map((e) => [e.name, e.uncompressedSize, e.method])).toEqual([
      ['a.txt', data.length, 8],
      ['dir/b.bin', 3, 0],
    ]);
    expect(readZipEntry(zip, entries[0]!, 1024).toString()).toBe(data.toString());
    expect([...readZipEntry(zip, entries[1]!, 1024)]).toEqual([1, 2, 3]);
  });

  it('finds the end record behind an archive comment', () => {
    const zip = writeZip([{ name: 'a.txt', data: Buffer.from('x') }]);
    zip.writeUInt16LE(5, zip.length - 2);
    expect(readZipDirectory(Buffer.concat([zip, Buffer.from('hello')]))).toHaveLength(1);
  });

  it('refuses a truncated archive', () => {
    const zip = writeZip([{ name: 'a.txt', data: Buffer.alloc(1000, 1) }]);
    expect(() => readZipDirectory(zip.subarray(0, zip.length - 30))).toThrow(ZipFormatError);
  });
});

describe('zipBombReason', () => {
  const entry = (uncompressedSize: number, compressedSize: number) => ({
    name: 'x',
    method: 8,
    flags: 0,
    compressedSize,
    uncompressedSize,
    localHeaderOffset: 0,
  });
  it('accepts ordinary documents, including small highly compressible parts', () => {
    expect(zipBombReason([entry(500_000, 50_000), entry(900_000, 1_000)], budget)).toBeNull();
  });
  it('refuses a big entry with an extreme ratio, a big total, or too many entries', () => {
    expect(zipBombReason([entry(50 * 1024 * 1024, 50_000)], budget)).toMatch(/expands 1049 times/);
    expect(zipBombReason([entry(6e6, 3e6), entry(6e6, 3e6)], budget)).toMatch(
      /expands to 11 MB \(limit 10 MB\)/,
    );
    expect(
      zipBombReason(
        Array.from({ length: 51 }, () => entry(1, 1)),
        budget,
      ),
    ).toMatch(/51 entries/);
  });
  it('catches an entry that inflates past its declared size', () => {
    const zip = writeZip([{ name: 'liar', data: Buffer.alloc(100_000), declaredUncompressedSize: 10 }]);
    expect(() => readZipEntry(zip, readZipDirectory(zip)[0]!, 1024 * 1024)).toThrow(/past its declared size/);
  });
});

describe('verifyZipEntries', () => {
  it('accepts an archive whose entries inflate to exactly their declared sizes', async () => {
    const zip = writeZip([
      { name: 'a.xml', data: Buffer.alloc(300_000, 0x61) },
      { name: 'b.bin', data: Buffer.from([1]), method: 0 },
    ]);
    await expect(verifyZipEntries(zip, readZipDirectory(zip))).resolves.toBeUndefined();
  });
  it('refuses entries that inflate past, or short of, their declared size', async () => {
    const over = writeZip([{ name: 'over', data: Buffer.alloc(5_000_000), declaredUncompressedSize: 1000 }]);
    await expect(verifyZipEntries(over, readZipDirectory(over))).rejects.toThrow(
      '"over" inflates past its declared size',
    );
    const under = writeZip([{ name: 'under', data: Buffer.alloc(10), declaredUncompressedSize: 1000 }]);
    await expect(verifyZipEntries(under, readZipDirectory(under))).rejects.toThrow(
      '"under" inflates to 10 bytes, not the 1000 declared',
    );
  });
});

describe('parsePdfDate', () => {
  it('reads full, partial and offset PDF dates', () => {
    expect(parsePdfDate("D:20210304050607+02'00'")).toBe('2021-03-04T03:06:07.000Z');
    expect(parsePdfDate('D:2019')).toBe('2019-01-01T00:00:00.000Z');
    expect(parsePdfDate('D:20200101120000Z')).toBe('2020-01-01T12:00:00.000Z');
    expect(parsePdfDate('garbage')).toBeUndefined();
  });
});
