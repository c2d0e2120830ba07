import { describe, expect, it } from 'vitest';
import { entityFilter, sqlString } from './lance-filter.ts';

describe('sqlString', () => {
  it('doubles quotes and leaves backslashes, %, _ and unicode literal', () => {
    expect(sqlString("o'neil")).toBe("'o''neil'");
    expect(sqlString("x' OR '1'='1")).toBe("'x'' OR ''1''=''1'");
    expect(sqlString('a\\b%_🍎')).toBe("'a\\b%_🍎'");
  });

  it('refuses NUL, which the engine would cut the literal at', () => {
    expect(() => sqlString('a\u0000b')).toThrow('NUL');
  });
});

describe('entityFilter', () => {
  it('always filters by owner and live rows, then by the optional filters', () => {
    expect(entityFilter({ ownerId: 'u1' })).toBe("deleted = false AND owner_id = 'u1'");
    expect(
      entityFilter({
        ownerId: "u'1",
        entityTypes: ['inventory_item'],
        category: 'Home & Garden',
        hashtags: ['#Spring', 'spring', 'It’s'],
        excludeKeys: ['k'],
      }),
    ).toBe(
      "deleted = false AND owner_id = 'u''1' AND entity_type IN ('inventory_item') AND category = 'Home & Garden' AND array_has_all(tags_norm, make_array('spring', 'it’s')) AND key NOT IN ('k')",
    );
  });

  it('drops a type filter that allows every type, and rejects unknown types and a missing owner', () => {
    expect(entityFilter({ ownerId: 'u', entityTypes: ['document', 'inventory_item'] })).not.toContain(
      'entity_type',
    );
    expect(() => entityFilter({ ownerId: 'u', entityTypes: ['user' as never] })).toThrow(
      'Unknown entity type',
    );
    expect(() => entityFilter({ ownerId: '' })).toThrow('ownerId');
  });
});

describe('entityFilter: only some keys (a kaboodle)', () => {
  it('limits to the listed keys, quoted like every other value', () => {
    expect(entityFilter({ ownerId: 'u', onlyKeys: ['["u","document","a"]', "x'y"] })).toBe(
      `deleted = false AND owner_id = 'u' AND key IN ('["u","document","a"]', 'x''y')`,
    );
  });

  it('refuses an empty list: matching nothing is the caller’s answer, not an empty IN ()', () => {
    expect(() => entityFilter({ ownerId: 'u', onlyKeys: [] })).toThrow('onlyKeys');
  });
});
