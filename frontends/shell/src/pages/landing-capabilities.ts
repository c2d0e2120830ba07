// The four capability panels of the landing page (docs/product.md#landing-page): what Kaboodle actually does,
// in its own words. Each detail maps to a feature that docs/product.md#overview commits the product to.
import type { DecoIconName } from '@kaboodle/kit';

export interface CapabilityDetail {
  icon: DecoIconName;
  title: string;
  description: string;
}

export interface Capability {
  id: string;
  icon: DecoIconName;
  title: string;
  description: string;
  details: CapabilityDetail[];
}

export const CAPABILITIES: Capability[] = [
  {
    id: 'document-analysis',
    icon: 'scroll',
    title: 'Document Analysis',
    description:
      'Hand Kaboodle a PDF, a Word file, a text note or a scan and get back a structured record you can sort, search and cite.',
    details: [
      {
        icon: 'eye',
        title: 'Extraction and OCR',
        description:
          'Text comes out of PDF, DOCX, DOC and TXT files; photographed and scanned pages are read with OCR, so nothing stays locked in an image.',
      },
      {
        icon: 'quill',
        title: 'Summary, thesis and issue',
        description:
          'A concise summary, the central thesis and the issue it tackles, with title, author, year and journal or publisher filled in.',
      },
      {
        icon: 'tag',
        title: 'Weighted hashtags',
        description:
          'Every document gets a category and hashtags, each with a relevancy score between 0 and 1, so the strongest themes rise to the top.',
      },
      {
        icon: 'layers',
        title: 'Table, grid, graph, reader',
        description:
          'Browse the Document Vault as a sortable table, a grid, a node graph linked by shared tags and authors, or a reader pane.',
      },
    ],
  },
  {
    id: 'inventory-cataloguing',
    icon: 'crate',
    title: 'Inventory Cataloguing',
    description:
      'Photograph handmade goods (beads, stools, bowls, fans, tote bags, home decor) and Kaboodle drafts the catalogue entry for you.',
    details: [
      {
        icon: 'camera',
        title: 'Object recognition',
        description:
          'Objects in each photo are recognised and the dominant colour is picked out, ready for the listing.',
      },
      {
        icon: 'pen',
        title: 'AI-drafted metadata',
        description:
          'Name, description, category, material and dimensions are proposed; correct any field and your version is kept.',
      },
      {
        icon: 'barcode',
        title: 'Barcode lookup',
        description:
          'Barcodes and QR codes in the picture are read and looked up, and what the lookup finds is attached to the item.',
      },
      {
        icon: 'gallery',
        title: 'Table and gallery',
        description:
          'Keep import cost and retail price beside every piece, and switch between the inventory table and a masonry photo gallery.',
      },
    ],
  },
  {
    id: 'vector-search',
    icon: 'compass',
    title: 'Vector-Based Search',
    description:
      'Ask in plain words. Kaboodle matches meaning, not just spelling, across every document and item in your archive.',
    details: [
      {
        icon: 'constellation',
        title: 'Semantic matching',
        description:
          'Each record is stored as a vector embedding, so “red electronics” finds the crimson radio even when the word “red” never appears.',
      },
      {
        icon: 'magnifier',
        title: 'Exact keywords too',
        description:
          'Switch to keyword search for precise word matches, with the words you typed highlighted in every result.',
      },
      {
        icon: 'merge',
        title: 'Hybrid ranking',
        description:
          'Meaning and keyword scores are blended; each hit shows its match percentage, its type and its category.',
      },
      {
        icon: 'lock',
        title: 'Only your archive',
        description:
          'Search looks inside your own documents and items, never anyone else’s, and remembers recent queries for a few minutes.',
      },
    ],
  },
  {
    id: 'combining-insights',
    icon: 'prism',
    title: 'Combining Insights',
    description:
      'Kaboodle fuses what it learns across sources, surfacing patterns you would not spot one file at a time.',
    details: [
      {
        icon: 'link',
        title: 'Related across sources',
        description:
          'Vector neighbours connect a contract to the invoice photo and to the product it mentions, across documents and inventory.',
      },
      {
        icon: 'trend',
        title: 'Trends',
        description:
          'Hashtag and category trends show what your archive is growing into as new files arrive.',
      },
      {
        icon: 'twins',
        title: 'Near-duplicates',
        description:
          'Near-identical documents and repeated photos are flagged before they clutter a kaboodle.',
      },
      {
        icon: 'bulb',
        title: 'Recommendations',
        description:
          '“You may also want” suggestions appear in the vault, on item pages and in the Observatory’s System Insights panel.',
      },
    ],
  },
];
