// The text files the pipeline benches upload: a note of six sentences, twice, around a unique
// reference token, so each file is distinct and findable (pipeline-throughput and the product bench).
const TOPICS = ['glass beads', 'woven fans', 'carved stools', 'clay bowls', 'tote bags', 'indigo dye'];
const SENTENCES = [
  'The cooperative records every trade in a ledger kept at the market hall.',
  'Artisans in the river valley have worked this craft for many generations.',
  'Prices rose after the dry season, when fewer caravans reached the town.',
  'Each piece is measured, weighed and photographed before it is catalogued.',
  'Buyers from the coast prefer bright colours and tight, even weaving.',
  'The archive keeps letters, receipts and sketches from the founding families.',
];
export function textFor(i: number, token: string): string {
  const topic = TOPICS[i % TOPICS.length]!;
  const body = Array.from({ length: 6 }, (_, k) => SENTENCES[(i + k) % SENTENCES.length]).join(' ');
  return `Notes on ${topic}, number ${i}\nby Archivist ${i % 17}\n\n${body}\nReference code ${token}.\n${body}\n`;
}
