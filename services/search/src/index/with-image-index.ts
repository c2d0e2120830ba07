// The text index and the image index written as one: every upsert, delete and owner removal reaches
// both (the writer and the rebuild see a single SearchIndex), so an item's photo vector follows its
// versions exactly like its text. An item whose vector comes from another image model (or none) has
// its old photo vector removed rather than compared across models.
import type { ImageIndex, ImageRecord } from './image-index.port.ts';
import type { EntityRef, IndexedEntity, SearchIndex } from './search-index.port.ts';

const refOf = (e: IndexedEntity): EntityRef => ({
  entityType: e.entityType,
  id: e.id,
  ownerId: e.ownerId,
  version: e.version,
});

export function imageRecordOf(
  e: IndexedEntity,
  images: Pick<ImageIndex, 'model' | 'dimensions'>,
): ImageRecord | undefined {
  if (!e.image || e.image.model !== images.model || e.image.vector.length !== images.dimensions)
    return undefined;
  return {
    entityType: e.entityType,
    id: e.id,
    ownerId: e.ownerId,
    version: e.version,
    model: e.image.model,
    vector: e.image.vector,
    title: e.title,
    description: e.description,
    category: e.category,
    imageUrl: e.imageUrl,
    hashtags: e.hashtags,
  };
}

export function withImageIndex(text: SearchIndex, images: ImageIndex): SearchIndex {
  return {
    ...text,
    kind: text.kind,
    dimensions: text.dimensions,
    async upsert(entities) {
      const outcome = await text.upsert(entities);
      const records: ImageRecord[] = [];
      const without: EntityRef[] = [];
      for (const e of entities) {
        const record = imageRecordOf(e, images);
        if (record) records.push(record);
        else if (e.entityType === 'inventory_item') without.push(refOf(e));
      }
      await Promise.all([
        records.length ? images.upsert(records) : undefined,
        without.length ? images.delete(without) : undefined,
      ]);
      return outcome;
    },
    async delete(refs) {
      const outcome = await text.delete(refs);
      const items = refs.filter((r) => r.entityType === 'inventory_item');
      if (items.length) await images.delete(items);
      return outcome;
    },
    async deleteOwner(ownerId) {
      await Promise.all([text.deleteOwner(ownerId), images.deleteOwner(ownerId)]);
    },
    async ping() {
      await Promise.all([text.ping(), images.ping()]);
    },
    // search, searchKeys, hitsOf, related, versionOf, stats, entityCount, listLive: the text index's own
    search: (q) => text.search(q),
    searchKeys: (q) => text.searchKeys(q),
    hitsOf: (q) => text.hitsOf(q),
    related: (q) => text.related(q),
    versionOf: (r) => text.versionOf(r),
    stats: (o) => text.stats(o),
    entityCount: (o) => text.entityCount(o),
    listLive: (o) => text.listLive(o),
    kaboodles: text.kaboodles,
    open: () => text.open(),
    close: () => text.close(),
  };
}
