// Search queries a user of the vault might type, each with the documents that answer it
// (grade 2: the document is about it; grade 1: it helps). Paraphrases on purpose, so keyword
// search alone cannot find everything.

export interface EvalQuery {
  query: string;
  relevant: Record<string, 1 | 2>;
}

export const EVAL_QUERIES: EvalQuery[] = [
  { query: 'storing carbon in farm soil', relevant: { 'p-soil': 2 } },
  { query: 'AI for reviewing contracts', relevant: { 'p-transformer-law': 2 } },
  { query: 'tired doctors make more mistakes', relevant: { 'p-sleep': 2 } },
  { query: 'speeding up graph queries across many servers', relevant: { 'p-graph-db': 2 } },
  { query: 'small loans for poor households', relevant: { 'p-microfinance': 2 } },
  { query: 'ocean warming kills reefs', relevant: { 'p-coral': 2, 'p-soil': 1 } },
  { query: 'SMS reminders for child immunisation', relevant: { 'p-vaccine': 2 } },
  { query: 'why people pay more for crafts made by hand', relevant: { 'e-handmade': 2, 'b-baskets': 1 } },
  { query: 'the value of doing nothing', relevant: { 'e-boredom': 2 } },
  { query: 'cars and the decline of walkable neighbourhoods', relevant: { 'e-cities': 2 } },
  { query: 'translating poetry faithfully', relevant: { 'e-translation': 2 } },
  { query: 'is my non-compete enforceable', relevant: { 'm-noncompete': 2 } },
  { query: 'deadline to report a hack to the regulator', relevant: { 'm-data-breach': 2 } },
  { query: 'can a tenant stop paying rent when repairs are not done', relevant: { 'm-lease': 2 } },
  { query: 'selling woven baskets online to Europe', relevant: { 'b-baskets': 2, 'e-handmade': 1 } },
  { query: 'coffee for commuters at train stations', relevant: { 'b-coffee': 2 } },
  { query: 'off-grid phone charging business', relevant: { 'b-solar': 2 } },
  { query: 'how did tote bag sales do last quarter', relevant: { 'r-quarterly': 2 } },
  { query: 'nitrate in drinking water wells', relevant: { 'r-water': 2 } },
  { query: 'history of the glass bead trade in Africa', relevant: { 'p-bead-trade': 2 } },
  { query: 'heat waves hurt exam results', relevant: { 'p-climate-school': 2, 'p-coral': 1 } },
  { query: 'wholesale order of raffia hand fans', relevant: { 'l-supplier': 2 } },
  { query: 'measuring magnetic fields with diamonds', relevant: { 'p-quantum': 2 } },
  {
    query: 'fairness of algorithms deciding loans and parole',
    relevant: { 'e-ai-ethics': 2, 'p-microfinance': 1 },
  },
  {
    query: 'legal memos about employment',
    relevant: { 'm-noncompete': 2, 'm-data-breach': 1, 'm-lease': 1 },
  },
  { query: 'climate change research', relevant: { 'p-coral': 2, 'p-soil': 2, 'p-climate-school': 1 } },
  { query: 'rooftop honeybees compete with wild bees', relevant: { 'h-bees': 2 } },
  { query: 'forcing arbitration of fraud claims', relevant: { 'h-arbitration': 2 } },
  { query: 'pottery classes and tableware for restaurants', relevant: { 'h-ceramics-plan': 2 } },
  { query: 'translation models for African languages', relevant: { 'h-nlp-paper': 2, 'e-translation': 1 } },
  {
    query: 'which products sit longest in the warehouse',
    relevant: { 'h-inventory-report': 2, 'r-quarterly': 1 },
  },
];
