// About (docs/product.md#public-pages): "What is Kaboodle?", "Core Features" and "Three-Partition Workflow"
// (docs/product.md#overview).
import { DecoIcon, OrnamentalFrame, TickMascot } from '@kaboodle/kit';
import type { DecoIconName } from '@kaboodle/kit';
import { DecoRule, PublicLayout } from './public-layout.tsx';

const FEATURES: { icon: DecoIconName; title: string; text: string }[] = [
  {
    icon: 'scroll',
    title: 'Extraction and summaries',
    text: 'Text is pulled from PDFs, Word files, plain text and scans, then summarised with its title, author, year, thesis and issue.',
  },
  {
    icon: 'tag',
    title: 'Hashtags with relevancy',
    text: 'Each record is classified with a category and hashtags, every tag carrying a relevancy score from 0 to 1.',
  },
  {
    icon: 'layers',
    title: 'Four view layouts',
    text: 'Look at your documents as a table, a grid, a node graph of shared tags and authors, or a document browser.',
  },
  {
    icon: 'constellation',
    title: 'Semantic and keyword search',
    text: 'Find records by meaning with vector search, or by exact words with keyword search, across documents and items.',
  },
  {
    icon: 'download',
    title: 'Structured downloads',
    text: 'Export documents, inventory and whole kaboodles as CSV or JSON, and save a visual grid as an image.',
  },
  {
    icon: 'gear',
    title: 'Adapts to your project',
    text: 'Default AI instructions and a default destination shape how each project’s files are read and where they land.',
  },
  {
    icon: 'crate',
    title: 'Inventory cataloguing',
    text: 'Object recognition in photos, AI-generated metadata and barcode lookup for beads, stools, bowls, fans, tote bags and home decor.',
  },
  {
    icon: 'prism',
    title: 'Combined insights',
    text: 'Related items across sources, tag and category trends, near-duplicate detection and recommendations.',
  },
];

const PARTITIONS: { title: string; text: string; points: string[] }[] = [
  {
    title: 'Rolodex and layout switcher',
    text: 'Flip through your kaboodles like cards in a rolodex and choose how the current one is laid out.',
    points: [
      'Collections of documents and items',
      'Table, grid, graph or browser layout',
      'Filters by category and tag',
    ],
  },
  {
    title: 'Processing zone',
    text: 'Bring material in and tell the AI what to look for before it starts reading.',
    points: [
      'Upload PDF, JPG, PNG, TXT, DOC and DOCX files up to 20 MB',
      'Paste web links to fetch and read',
      'Customise the AI instructions for each batch',
    ],
  },
  {
    title: 'Results table',
    text: 'Everything Kaboodle learned, organised and searchable, with the metadata beside each record.',
    points: [
      'Sortable columns and instant filtering',
      'Summaries, theses, tags and scores',
      'Download any record or export the lot',
    ],
  },
];

export default function AboutPage() {
  return (
    <PublicLayout>
      <div className="kbp-container">
        <section className="kbp-hero-band" aria-labelledby="kbp-what">
          <div>
            <p className="kb-eyebrow">About</p>
            <h1 id="kbp-what">What is Kaboodle?</h1>
            <DecoRule />
            <p className="kbp-lead">
              Kaboodle is an AI-powered tool for organising, summarising and analysing documents, made for
              researchers, lawyers and entrepreneurs, and for makers who catalogue handmade goods. You bring
              the papers, photos and links; Kaboodle reads them, writes the summaries, tags and scores the
              themes, recognises objects and barcodes, and files everything into collections you can search by
              meaning.
            </p>
            <p className="kbp-lead">
              Its archivist is <strong>Tick</strong>, a clockwork mascot who keeps the shelves in order.
            </p>
          </div>
          <TickMascot size={200} pose="reading" />
        </section>

        <section className="kbp-section" aria-labelledby="kbp-core">
          <h2 id="kbp-core">Core Features</h2>
          <DecoRule />
          <ul className="kbp-feature-grid">
            {FEATURES.map((f) => (
              <li key={f.title} className="kbp-feature">
                <DecoIcon name={f.icon} size={28} />
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="kbp-section" aria-labelledby="kbp-workflow">
          <h2 id="kbp-workflow">Three-Partition Workflow</h2>
          <DecoRule />
          <ol className="kbp-workflow" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {PARTITIONS.map((p, i) => (
              <li key={p.title}>
                <OrnamentalFrame as="article" title={`Partition ${i + 1}`}>
                  <span className="kbp-part-number" aria-hidden="true">
                    0{i + 1}
                  </span>
                  <h3>{p.title}</h3>
                  <p>{p.text}</p>
                  <ul>
                    {p.points.map((point) => (
                      <li key={point}>{point}</li>
                    ))}
                  </ul>
                </OrnamentalFrame>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </PublicLayout>
  );
}
