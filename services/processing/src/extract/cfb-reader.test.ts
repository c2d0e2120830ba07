// The compound-file reader against files written both ways Word does it (small streams in the
// mini stream, large ones in regular sectors), and against damage.
import { describe, expect, it } from 'vitest';
import { CfbFormatError, cfbFlavour, openCfb } from './cfb-reader.ts';
import { parseSummaryInformation } from './doc-extractor.ts';
import { wordDoc, writeCfb } from './test-fixtures/generate-containers.ts';

const small = Buffer.from('a small stream that lives in 64-byte mini sectors '.repeat(5));
const large = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));

describe('openCfb', () => {
  it.each([
    ['mini stream', false],
    ['padded to regular sectors', true],
  ])('reads streams back byte for byte (%s)', (_label, padSmallStreams) => {
    const file = openCfb(
      writeCfb(
        [
          { name: 'Small', data: small },
          { name: 'Large', data: large },
        ],
        { padSmallStreams },
      ),
    );
    expect(file.entries.map((e) => e.name).sort()).toEqual(['Large', 'Root Entry', 'Small']);
    expect(file.readStream('Large')).toEqual(large);
    const back = file.readStream('Small')!;
    expect(back.subarray(0, small.length)).toEqual(small);
    expect(file.readStream('Missing')).toBeNull();
  });

  it('tells Word documents from other compound files', () => {
    expect(cfbFlavour(openCfb(wordDoc({ paragraphs: ['x'] })).entries)).toBe('doc');
    expect(cfbFlavour(openCfb(writeCfb([{ name: 'Workbook', data: small }])).entries)).toBe('xls');
    expect(cfbFlavour(openCfb(writeCfb([{ name: 'EncryptedPackage', data: large }])).entries)).toBe(
      'encrypted-ooxml',
    );
  });

  it('refuses a truncated file with a format error, not a crash', () => {
    const bytes = writeCfb([{ name: 'Large', data: large }]);
    expect(() => openCfb(bytes.subarray(0, 1024)).readStream('Large')).toThrow(CfbFormatError);
  });

  it('reads title, author and creation time from a SummaryInformation stream in the mini stream', () => {
    const file = openCfb(
      wordDoc({
        paragraphs: ['x'],
        title: 'Trädgård',
        author: 'Åsa',
        created: new Date('2001-02-03T04:05:06Z'),
      }),
    );
    const summary = file.readStream('\u0005SummaryInformation')!;
    expect(summary.length).toBeLessThan(4096);
    expect(parseSummaryInformation(summary)).toEqual({
      title: 'Trädgård',
      author: 'Åsa',
      created: '2001-02-03T04:05:06.000Z',
    });
  });
});
