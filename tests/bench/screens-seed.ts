// A library of N documents and N inventory items for the screen speed budget (issue 18), written
// straight into the catalogue (the pipeline would take an hour here), like insights.bench.ts does;
// the product's own rebuild-on-start fills the search index from it. Deterministic.
import { randomUUID } from 'node:crypto';
import { createPgliteDatabase } from '@kaboodle/platform';
import { create, DocumentAnalysisSchema, InventoryAnalysisSchema } from '@kaboodle/proto';
import { createDocumentRepository } from '@kaboodle/catalogue';
import { createInventoryRepository } from '@kaboodle/catalogue';

const DIMS = 512;
const WORDS =
  'beads glass trade ledger stool joinery weave palm fan bowl clay kiln coast market dye loom rope knot silk tote'.split(
    ' ',
  );
const CATEGORIES = ['History', 'Economics', 'Crafts', 'Textiles', 'Science', 'Art'];
const ITEM_CATEGORIES = ['Beads', 'Stools', 'Bowls', 'Fans', 'Totebags', 'Home Decor'];

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedLibrary(dataDir: string, ownerId: string, n: number): Promise<void> {
  const rand = prng(18);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const unit = (v: number[]) => {
    const len = Math.hypot(...v) || 1;
    return v.map((x) => x / len);
  };
  const centres = Array.from({ length: 60 }, () => unit(Array.from({ length: DIMS }, gauss)));
  const db = createPgliteDatabase({ dataDir: `${dataDir}/pglite`, schema: 'catalogue' });
  const documents = createDocumentRepository(db);
  const inventory = createInventoryRepository(db);
  for (let from = 0; from < 2 * n; from += 250) {
    await db.transaction(async (tx) => {
      for (let i = from; i < Math.min(2 * n, from + 250); i++) {
        const id = randomUUID();
        const vec = unit(centres[i % centres.length]!.map((x) => x + gauss() * 0.04));
        const embedding = { values: vec, provider: 'local', model: 'use-lite', dimensions: DIMS };
        const tags = [WORDS[i % WORDS.length]!, WORDS[(i * 7 + 3) % WORDS.length]!];
        const hashtags = [...new Set(tags)].map((tag) => ({ tag, relevancy: 0.8 }));
        const source = {
          fileId: id,
          fileName: `file-${i}.txt`,
          contentType: 'text/plain',
          size: 2048,
          blobKey: `files/${ownerId}/${id}`,
          sha256: '',
        };
        const base = { id, ownerId, attempt: 1, corrections: {}, correctedFields: [] };
        if (i % 2 === 0) {
          const analysis = create(InventoryAnalysisSchema, {
            name: `${WORDS[i % WORDS.length]} ${ITEM_CATEGORIES[i % ITEM_CATEGORIES.length]} ${i}`,
            description: `A handmade ${WORDS[(i * 3) % WORDS.length]} piece from the ${WORDS[(i * 5) % WORDS.length]} market`,
            category: ITEM_CATEGORIES[i % ITEM_CATEGORIES.length]!,
            material: WORDS[(i * 5) % WORDS.length]!,
            hashtags,
            embedding,
          });
          const photo = { ...source, contentType: 'image/png', fileName: `item-${i}.png` };
          await inventory.save(tx, { ...base, source: photo, analysis });
        } else {
          const analysis = create(DocumentAnalysisSchema, {
            title: `${WORDS[i % WORDS.length]} and ${WORDS[(i * 11) % WORDS.length]} ${i}`,
            author: `Author ${i % 150}`,
            category: CATEGORIES[i % CATEGORIES.length]!,
            publicationYear: 1950 + (i % 75),
            summary: `On ${tags.join(', ')}: a short study of how makers and traders work.`,
            hashtags,
            text: { text: `On ${tags.join(' and ')}: notes number ${i}.`, pageCount: 1, language: 'en' },
            embedding,
            passages: [{ text: `notes ${i}`, start: 0, end: 8, vector: vec }],
          });
          await documents.save(tx, { ...base, source, analysis });
        }
      }
    });
  }
  await db.close();
}
