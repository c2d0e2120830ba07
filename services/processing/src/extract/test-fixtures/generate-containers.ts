// Test-fixture writers for the two containers Office uses: ZIP (with control over the declared sizes,
// to build zip bombs whose directory tells the truth or lies) and OLE2 CFB (to build a real Word 97
// .doc without Word or LibreOffice, and a password-protected DOCX's encrypted envelope).
import zlib from 'node:zlib';

// ---------------------------------------------------------------- ZIP

export interface ZipInput {
  name: string;
  data: Buffer;
  /** Store (0) or deflate (8, default). */
  method?: 0 | 8;
  /** Override the sizes written to the headers (to make a directory that lies). */
  declaredUncompressedSize?: number;
}

export function writeZip(entries: ZipInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const method = entry.method ?? 8;
    const body = method === 8 ? zlib.deflateRawSync(entry.data, { level: 9 }) : entry.data;
    const crc = zlib.crc32(entry.data) >>> 0;
    const size = entry.declaredUncompressedSize ?? entry.data.length;
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const documentXml = (text: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`;

/**
 * A DOCX whose payload inflates to `inflatedBytes` of zeros. With `lie`, the directory declares
 * the payload as 1 KiB (so only inflating it reveals the truth).
 */
export function zipBombDocx(inflatedBytes: number, options: { lie?: boolean } = {}): Buffer {
  return writeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: Buffer.from(documentXml('Nothing to see here.')) },
    {
      name: 'word/media/payload.bin',
      data: Buffer.alloc(inflatedBytes),
      ...(options.lie ? { declaredUncompressedSize: 1024 } : {}),
    },
  ]);
}

// ---------------------------------------------------------------- CFB

const END_OF_CHAIN = 0xfffffffe;
const FREE_SECT = 0xffffffff;
const FAT_SECT = 0xfffffffd;
const NO_STREAM = 0xffffffff;
const SECTOR = 512;

/**
 * Writes a version-3 compound file. Streams under the 4096-byte cutoff go to the mini stream
 * (64-byte mini sectors inside the root entry's chain), as Word does; `padSmallStreams` instead
 * pads them to 4096 bytes so they live in regular sectors.
 */
export function writeCfb(
  streams: { name: string; data: Buffer }[],
  options: { padSmallStreams?: boolean } = {},
): Buffer {
  const MINI = 64;
  const CUTOFF = 4096;
  const prepared = streams
    .map((s) => ({
      name: s.name,
      data:
        options.padSmallStreams && s.data.length < CUTOFF
          ? Buffer.concat([s.data, Buffer.alloc(CUTOFF - s.data.length)])
          : s.data,
    }))
    // Siblings form a binary search tree ordered by (length, upper-case name); a right-leaning chain is valid.
    .sort((a, b) => a.name.length - b.name.length || (a.name.toUpperCase() < b.name.toUpperCase() ? -1 : 1));
  const sectorsOf = (n: number) => Math.ceil(n / SECTOR);

  // Mini stream: small streams packed in 64-byte mini sectors, chained by the mini FAT.
  const miniParts: Buffer[] = [];
  const miniFatEntries: number[] = [];
  const miniStart = new Map<string, number>();
  for (const s of prepared) {
    if (s.data.length >= CUTOFF || s.data.length === 0) continue;
    const first = miniFatEntries.length;
    const count = Math.ceil(s.data.length / MINI);
    for (let i = 0; i < count; i++) miniFatEntries.push(i === count - 1 ? END_OF_CHAIN : first + i + 1);
    miniParts.push(Buffer.concat([s.data, Buffer.alloc(count * MINI - s.data.length)]));
    miniStart.set(s.name, first);
  }
  const miniStream = Buffer.concat(miniParts);
  const miniFat = Buffer.alloc(sectorsOf(miniFatEntries.length * 4) * SECTOR, 0xff);
  miniFatEntries.forEach((v, i) => miniFat.writeUInt32LE(v, i * 4));

  let next = 0;
  const regions: { start: number; data: Buffer }[] = [];
  const place = (data: Buffer): number => {
    if (data.length === 0) return END_OF_CHAIN;
    const start = next;
    next += sectorsOf(data.length);
    regions.push({ start, data });
    return start;
  };
  const placed = prepared.map((s) => ({
    ...s,
    start: miniStart.has(s.name)
      ? miniStart.get(s.name)!
      : s.data.length === 0
        ? END_OF_CHAIN
        : place(s.data),
  }));
  const miniStreamStart = place(miniStream);
  const miniFatStart = place(miniFat);
  const dirEntries = placed.length + 1;
  const dirSectors = sectorsOf(dirEntries * 128);
  const dirStart = next;
  next += dirSectors;
  let fatSectors = 1;
  while (fatSectors * (SECTOR / 4) < next + fatSectors) fatSectors++;
  if (fatSectors > 109) throw new Error('writeCfb: file too large for a header-only DIFAT');
  const fatStart = next;
  const total = next + fatSectors;

  const fat = Buffer.alloc(fatSectors * SECTOR, 0xff);
  const chain = (start: number, count: number) => {
    for (let i = 0; i < count; i++)
      fat.writeUInt32LE(i === count - 1 ? END_OF_CHAIN : start + i + 1, (start + i) * 4);
  };
  for (const r of regions) chain(r.start, sectorsOf(r.data.length));
  chain(dirStart, dirSectors);
  for (let i = 0; i < fatSectors; i++) fat.writeUInt32LE(FAT_SECT, (fatStart + i) * 4);

  const dir = Buffer.alloc(dirSectors * SECTOR);
  const writeEntry = (
    index: number,
    name: string,
    type: number,
    child: number,
    right: number,
    start: number,
    size: number,
  ) => {
    const at = index * 128;
    dir.write(name, at, 'utf16le');
    dir.writeUInt16LE((name.length + 1) * 2, at + 64);
    dir.writeUInt8(type, at + 66);
    dir.writeUInt8(1, at + 67); // black
    dir.writeUInt32LE(NO_STREAM, at + 68);
    dir.writeUInt32LE(right, at + 72);
    dir.writeUInt32LE(child, at + 76);
    dir.writeUInt32LE(start, at + 116);
    dir.writeUInt32LE(size, at + 120);
  };
  writeEntry(
    0,
    'Root Entry',
    5,
    placed.length > 0 ? 1 : NO_STREAM,
    NO_STREAM,
    miniStreamStart,
    miniStream.length,
  );
  placed.forEach((s, i) =>
    writeEntry(
      i + 1,
      s.name,
      2,
      NO_STREAM,
      i + 2 <= placed.length ? i + 2 : NO_STREAM,
      s.start,
      s.data.length,
    ),
  );
  for (let i = dirEntries; i < dirSectors * 4; i++) {
    dir.writeUInt32LE(NO_STREAM, i * 128 + 68);
    dir.writeUInt32LE(NO_STREAM, i * 128 + 72);
    dir.writeUInt32LE(NO_STREAM, i * 128 + 76);
  }

  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(fatSectors, 44);
  header.writeUInt32LE(dirStart, 48);
  header.writeUInt32LE(CUTOFF, 56);
  header.writeUInt32LE(miniFatStart, 60);
  header.writeUInt32LE(miniFat.length / SECTOR, 64);
  header.writeUInt32LE(END_OF_CHAIN, 68);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i < fatSectors ? fatStart + i : FREE_SECT, 76 + i * 4);

  const body = Buffer.alloc(total * SECTOR);
  for (const r of regions) r.data.copy(body, r.start * SECTOR);
  dir.copy(body, dirStart * SECTOR);
  fat.copy(body, fatStart * SECTOR);
  return Buffer.concat([header, body]);
}

export interface DocFixture {
  paragraphs: string[];
  title?: string;
  author?: string;
  created?: Date;
  /** Sets the FIB's fEncrypted flag (what Word writes for a password-protected .doc). */
  encrypted?: boolean;
}

/**
 * A minimal but real Word 97 binary document: a FIB, one Unicode text piece in the piece table
 * (Clx in the 1Table stream), and a SummaryInformation property set with title/author/created.
 */
export function wordDoc(fixture: DocFixture): Buffer {
  const text = fixture.paragraphs.join('\r') + '\r';
  const fcMin = 0x800;
  const textBytes = Buffer.from(text, 'utf16le');
  const word = Buffer.alloc(fcMin + textBytes.length);
  word.writeUInt16LE(0xa5ec, 0x00); // wIdent
  word.writeUInt16LE(0x00c1, 0x02); // nFib: Word 97
  word.writeUInt16LE(0x0409, 0x06); // lid: en-US
  word.writeUInt16LE(0x0200 | (fixture.encrypted ? 0x0100 : 0), 0x0a); // fWhichTblStm (1Table) [+ fEncrypted]
  word.writeUInt32LE(fcMin, 0x18);
  word.writeUInt32LE(fcMin + textBytes.length, 0x1c);
  word.writeUInt16LE(14, 0x20); // csw
  word.writeUInt16LE(22, 0x3e); // cslw
  word.writeUInt32LE(word.length, 0x40); // cbMac
  word.writeUInt32LE(text.length, 0x4c); // ccpText
  word.writeUInt16LE(0x5d, 0x98); // cbRgFcLcb
  const clxLength = 1 + 4 + 8 + 8;
  word.writeUInt32LE(0, 0x1a2); // fcClx
  word.writeUInt32LE(clxLength, 0x1a6); // lcbClx
  textBytes.copy(word, fcMin);

  const table = Buffer.alloc(clxLength);
  table.writeUInt8(0x02, 0); // Pcdt
  table.writeUInt32LE(16, 1); // lcb of PlcPcd: 2 CPs + 1 PCD
  table.writeUInt32LE(0, 5);
  table.writeUInt32LE(text.length, 9);
  table.writeUInt16LE(0, 13);
  table.writeUInt32LE(fcMin, 15); // fc without 0x40000000: UTF-16 text at this byte offset
  table.writeUInt16LE(0, 19);

  const streams: { name: string; data: Buffer }[] = [
    { name: 'WordDocument', data: word },
    { name: '1Table', data: table },
  ];
  if (fixture.title || fixture.author || fixture.created) {
    streams.push({ name: '\u0005SummaryInformation', data: summaryInformation(fixture) });
  }
  return writeCfb(streams);
}

function summaryInformation(fixture: DocFixture): Buffer {
  const props: { id: number; value: Buffer }[] = [];
  const i2 = Buffer.alloc(8);
  i2.writeUInt32LE(2, 0);
  i2.writeInt16LE(1252, 4);
  props.push({ id: 1, value: i2 });
  const lpstr = (s: string) => {
    const bytes = Buffer.from(s + '\0', 'latin1');
    const out = Buffer.alloc(8 + Math.ceil(bytes.length / 4) * 4);
    out.writeUInt32LE(0x1e, 0);
    out.writeUInt32LE(bytes.length, 4);
    bytes.copy(out, 8);
    return out;
  };
  if (fixture.title) props.push({ id: 2, value: lpstr(fixture.title) });
  if (fixture.author) props.push({ id: 4, value: lpstr(fixture.author) });
  if (fixture.created) {
    const ft = Buffer.alloc(12);
    ft.writeUInt32LE(0x40, 0);
    ft.writeBigUInt64LE(BigInt(fixture.created.getTime() + 11_644_473_600_000) * 10_000n, 4);
    props.push({ id: 12, value: ft });
  }
  const headerLength = 8 + props.length * 8;
  const section = Buffer.alloc(headerLength + props.reduce((n, p) => n + p.value.length, 0));
  section.writeUInt32LE(section.length, 0);
  section.writeUInt32LE(props.length, 4);
  let at = headerLength;
  props.forEach((p, i) => {
    section.writeUInt32LE(p.id, 8 + i * 8);
    section.writeUInt32LE(at, 12 + i * 8);
    p.value.copy(section, at);
    at += p.value.length;
  });
  const head = Buffer.alloc(48);
  head.writeUInt16LE(0xfffe, 0);
  head.writeUInt32LE(0x00020006, 4);
  head.writeUInt32LE(1, 24);
  Buffer.from('e0859ff2f94f6810ab9108002b27b3d9', 'hex').copy(head, 28); // FMTID_SummaryInformation
  head.writeUInt32LE(48, 44);
  return Buffer.concat([head, section]);
}

/** What Office writes for a password-protected DOCX: a CFB holding EncryptionInfo + EncryptedPackage. */
export function encryptedDocxEnvelope(): Buffer {
  const info = Buffer.alloc(256);
  info.writeUInt16LE(4, 0); // agile encryption version 4.4
  info.writeUInt16LE(4, 2);
  return writeCfb([
    { name: 'EncryptionInfo', data: info },
    { name: 'EncryptedPackage', data: Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 131) & 0xff)) },
  ]);
}
