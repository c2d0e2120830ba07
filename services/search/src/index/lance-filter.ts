// SQL predicates for LanceDB (DataFusion dialect). Every user-supplied value goes through sqlString:
// predicates are strings, so a missed escape would be an injection across owners.
import { InputError } from '@kaboodle/platform';
import type { IndexedEntityType } from './search-index.port.ts';
import { ENTITY_TYPES, normaliseTag } from './search-scoring.ts';

/**
 * A DataFusion string literal. Standard SQL strings: the only special character is the quote,
 * doubled; backslashes are literal. NUL cannot be stored in the index's keys (ids, owners, tags
 * come from our own services), so it is refused rather than silently truncated.
 */
export function sqlString(value: string): string {
  if (typeof value !== 'string') throw new InputError('Expected a string value');
  if (value.includes('\u0000')) throw new InputError('Text must not contain NUL characters');
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlStringList(values: string[]): string {
  return values.map(sqlString).join(', ');
}

export interface EntityFilter {
  ownerId: string;
  entityTypes?: IndexedEntityType[] | undefined;
  category?: string | undefined;
  hashtags?: string[] | undefined;
  /** Keys to leave out (related(): never the entity itself). */
  excludeKeys?: string[];
  /** Only these keys (a kaboodle's members); the caller answers an empty list itself. */
  onlyKeys?: string[] | undefined;
}

/** The live rows of one owner matching the optional filters. */
export function entityFilter(f: EntityFilter): string {
  if (!f.ownerId) throw new InputError('ownerId is required');
  const parts = ['deleted = false', `owner_id = ${sqlString(f.ownerId)}`];
  if (f.entityTypes && f.entityTypes.length > 0) {
    for (const t of f.entityTypes) {
      if (!ENTITY_TYPES.includes(t)) throw new InputError(`Unknown entity type: ${String(t)}`);
    }
    const types = [...new Set(f.entityTypes)];
    if (types.length < ENTITY_TYPES.length) parts.push(`entity_type IN (${sqlStringList(types)})`);
  }
  if (f.category !== undefined && f.category !== '') parts.push(`category = ${sqlString(f.category)}`);
  const tags = [...new Set((f.hashtags ?? []).map(normaliseTag).filter((t) => t !== ''))];
  if (tags.length > 0) parts.push(`array_has_all(tags_norm, make_array(${sqlStringList(tags)}))`);
  if (f.excludeKeys && f.excludeKeys.length > 0) parts.push(`key NOT IN (${sqlStringList(f.excludeKeys)})`);
  if (f.onlyKeys) {
    if (f.onlyKeys.length === 0) throw new InputError('onlyKeys must name at least one key');
    parts.push(`key IN (${sqlStringList(f.onlyKeys)})`);
  }
  return parts.join(' AND ');
}
