// Evaluation corpus (../documents.ts), held out: written after the rules were frozen; do not tune the
// enricher on these (they give the honest estimate).
import type { EvalDocument } from './eval-document.ts';

export const HELD_OUT: EvalDocument[] = [
  {
    id: 'h-bees',
    heldOut: true,
    fileName: 'urban-bees.txt',
    expected: {
      title: 'Urban Beekeeping and Wild Pollinator Decline',
      authors: ['Laurent', 'Haddad'],
      year: 2020,
      journal: 'Ecology and Society',
      category: 'Research Paper',
      field: 'Biology',
    },
    text: `Urban Beekeeping and Wild Pollinator Decline
Camille Laurent, Yusuf Haddad
Ecology and Society 25(3): 14 (2020)

Abstract. Honeybee hives have multiplied on city rooftops. We counted wild bees and flowers in 36 urban gardens over three summers. Where hive density was highest, wild bee species richness was 30% lower, suggesting competition for pollen and nectar. Honeybees are managed livestock; wild bees are the pollinators that urban biodiversity depends on. We recommend limiting hive density and planting more flowers before adding hives.`,
  },
  {
    id: 'h-arbitration',
    heldOut: true,
    fileName: 'arbitration-memo.txt',
    expected: {
      title: 'Whether the arbitration clause covers the distributor’s tort claims',
      authors: ['Whitfield'],
      year: 2019,
      category: 'Legal Memo',
      field: 'Law',
    },
    text: `MEMO
TO: Litigation Team
FROM: Hannah Whitfield
DATE: November 21, 2019
SUBJECT: Whether the arbitration clause covers the distributor’s tort claims

ISSUE
Whether the distributor can avoid arbitration by pleading fraud and unfair competition as tort claims instead of contract claims.

BRIEF ANSWER
No. The clause covers "any dispute arising out of or relating to" the agreement, and courts read that language broadly to reach tort claims that depend on the contract relationship.

ANALYSIS
The distributor's fraud claim concerns statements made while negotiating the renewal. Because the claim cannot be decided without looking at the agreement, a court will likely compel arbitration.`,
  },
  {
    id: 'h-ceramics-plan',
    heldOut: true,
    fileName: 'studio-plan.txt',
    expected: {
      title: 'Clay & Fire Studio: Business Plan',
      authors: ['Duarte'],
      year: 2025,
      category: 'Business Plan',
      field: 'Business',
    },
    text: `Clay & Fire Studio: Business Plan
Author: Rafael Duarte
February 2025

1. Executive summary
Clay & Fire is a pottery studio that will sell hand-thrown bowls and mugs and run evening classes. Classes bring steady revenue while the studio builds its wholesale business with local restaurants. We expect 95,000 dollars of revenue in year one.

2. Market
The city has no open-access pottery studio; the nearest one has a six-month waiting list for classes. Restaurants want distinctive tableware in small runs.

3. Financials
We need 48,000 dollars for two kilns, wheels and the first year's lease, financed by a small business loan and the founder's savings.`,
  },
  {
    id: 'h-memory-essay',
    heldOut: true,
    fileName: 'photographs-essay.txt',
    expected: {
      title: 'Photographs We Never Look At',
      authors: ['Varga'],
      category: 'Essay',
      field: 'Psychology',
    },
    text: `Photographs We Never Look At
by Zsófia Varga

We take more photographs in a week than our grandparents took in a lifetime, and we look at almost none of them. I contend that the camera has changed what memory is for. Psychologists call it the photo-taking impairment effect: people who photograph an object remember it less well than people who simply look.

Perhaps the photograph has become a promise to remember later, a promise we rarely keep. My argument is not that we should stop taking pictures, but that attention, not storage, is what makes an experience our own.`,
  },
  {
    id: 'h-inventory-report',
    heldOut: true,
    fileName: 'stock-report.txt',
    expected: {
      title: 'Annual Inventory Report',
      authors: ['Lindgren'],
      year: 2023,
      category: 'Report',
      field: 'Business',
    },
    text: `Annual Inventory Report
Prepared by Sofia Lindgren
December 2023

Findings
The stock count found 1,240 items across six categories. Beads and tote bags turn over fastest, in about six weeks. Stools and large decor pieces stay in stock for five months on average and take up 40% of storage space. Eighteen items were damaged, mostly bowls broken in transit.

Recommendations
Order stools in smaller batches, improve packaging for bowls, and move slow items to a clearance sale before the spring collection arrives.`,
  },
  {
    id: 'h-nlp-paper',
    heldOut: true,
    fileName: 'low-resource-mt.txt',
    expected: {
      title: 'Machine Translation for Low-Resource African Languages',
      authors: ['Abebe', 'Kamau', 'Diop'],
      year: 2024,
      journal: 'Transactions of the Association for Computational Linguistics',
      category: 'Research Paper',
      field: 'Computer Science',
    },
    text: `Machine Translation for Low-Resource African Languages
Selam Abebe, Njeri Kamau, Cheikh Diop
Transactions of the Association for Computational Linguistics, vol. 12, 2024

Abstract
Most machine translation systems perform poorly on languages with little parallel text. We collect 200,000 sentence pairs for Amharic, Kikuyu and Wolof from radio transcripts and religious texts, and train a multilingual neural network with shared subword units. Our model improves BLEU by 6 points over the best public system. We show that data from related languages helps more than larger models, and we release the dataset and source code.`,
  },
];
