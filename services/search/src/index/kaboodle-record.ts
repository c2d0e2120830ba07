// What both adapters check and store of a kaboodle's membership: the same refusals (an InputError,
// never an engine error), the same normal form, and the saved search of a smart kaboodle as JSON.
import { InputError } from '@kaboodle/platform';
import type { IndexedKaboodle, KaboodleRef, MemberRef, SavedSearch } from './search-index.port.ts';
import { ENTITY_TYPES } from './search-scoring.ts';

const SEARCH_TYPES = ['semantic', 'keyword', 'hybrid'] as const;

export function checkKaboodleRef(r: KaboodleRef): void {
  if (!r.id || !r.ownerId || typeof r.id !== 'string' || typeof r.ownerId !== 'string')
    throw new InputError('An indexed kaboodle needs an id and an owner');
  if (!Number.isSafeInteger(r.version) || r.version < 0)
    throw new InputError(`Kaboodle version must be a non-negative integer, got ${r.version}`);
}

/** The kaboodle in normal form: members deduplicated (first place kept), a valid saved search. */
export function normaliseKaboodle(k: IndexedKaboodle): IndexedKaboodle {
  checkKaboodleRef(k);
  const seen = new Set<string>();
  const members: MemberRef[] = [];
  for (const m of k.members ?? []) {
    if (!ENTITY_TYPES.includes(m.entityType))
      throw new InputError(`Unknown entity type: ${String(m.entityType)}`);
    if (!m.id) throw new InputError('A kaboodle member needs an id');
    const key = `${m.entityType}:${m.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    members.push({ entityType: m.entityType, id: m.id });
  }
  const updatedAt =
    k.updatedAt instanceof Date && Number.isFinite(k.updatedAt.getTime()) ? k.updatedAt : new Date(0);
  return {
    ownerId: k.ownerId,
    id: k.id,
    version: k.version,
    members,
    ...(k.smart ? { smart: checkSaved(k.smart) } : {}),
    updatedAt,
  };
}

function checkSaved(s: SavedSearch): SavedSearch {
  if (typeof s.query !== 'string' || s.query.trim() === '')
    throw new InputError('A smart kaboodle needs a search query');
  if (!SEARCH_TYPES.includes(s.searchType))
    throw new InputError(`Unknown search type: ${String(s.searchType)}`);
  for (const t of s.entityTypes ?? []) {
    if (!ENTITY_TYPES.includes(t)) throw new InputError(`Unknown entity type: ${String(t)}`);
  }
  return {
    query: s.query,
    searchType: s.searchType,
    entityTypes: [...new Set(s.entityTypes ?? [])],
    ...(s.category ? { category: s.category } : {}),
    ...(s.kaboodleId ? { kaboodleId: s.kaboodleId } : {}),
  };
}

/** The saved search as stored text ('' for none). */
export function savedSearchJson(s: SavedSearch | undefined): string {
  return s ? JSON.stringify(s) : '';
}

/** Stored text back to a saved search; undefined for '' (and for anything unreadable). */
export function savedSearchFrom(text: unknown): SavedSearch | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return checkSaved(JSON.parse(text) as SavedSearch);
  } catch {
    return undefined;
  }
}

/** The highest version of each kaboodle in one call; the others count as stale. */
export function latestPerKaboodle<T extends KaboodleRef>(list: T[]): { latest: T[]; duplicates: number } {
  const best = new Map<string, T>();
  for (const k of list) {
    const key = JSON.stringify([k.ownerId, k.id]);
    const b = best.get(key);
    if (!b || k.version > b.version) best.set(key, k);
  }
  return { latest: [...best.values()], duplicates: list.length - best.size };
}
