// What the "How to Use Kaboodle" dialog teaches (the workflow and help topics of docs/product.md#overview).
export interface HelpTopic {
  icon: string;
  title: string;
  text: string;
}

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    icon: '⤒',
    title: 'Upload documents and media files',
    text: 'Open Process, drop in PDFs, Word files, text or photos (up to 20 MB each) or paste a link, and add your own instructions for the AI. Tick extracts the text, summarises it and tags it.',
  },
  {
    icon: '▦',
    title: 'Manage inventory',
    text: 'Photos of your goods become inventory items with a name, description, category, material and colour. Correct anything the AI got wrong from the item page.',
  },
  {
    icon: '⌕',
    title: 'Search documents',
    text: 'Search by meaning (semantic search) or by exact words (keyword search) across your documents and inventory.',
  },
  {
    icon: '❖',
    title: 'Create and manage kaboodles',
    text: 'Gather documents and items into kaboodles: named collections you can describe, open and export.',
  },
  {
    icon: '◫',
    title: 'Use the Media Hub',
    text: 'Every file you uploaded in one place, with previews, status, download and reprocessing.',
  },
];

export const WORKFLOW_PARTS: readonly string[] = [
  'A rolodex and layout switcher: table, grid, node graph or document browser.',
  'A processing zone: upload files, paste URLs, customise the AI instructions.',
  'A results table: searchable, organised results with their metadata.',
];
