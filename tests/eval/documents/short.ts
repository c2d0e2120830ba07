// Evaluation corpus (../documents.ts), short documents, the kind people jot down or save (added for the
// short-text fixes; the enricher was tuned with them in view, so they are not held out). A text that
// states no title is expected to get its file name's words, the documented fallback; a field of ''
// means the text gives no discipline and none should be invented.
import type { EvalDocument } from './eval-document.ts';

export const SHORT: EvalDocument[] = [
  {
    id: 's-sourdough-paragraph',
    fileName: 'sourdough-note.txt',
    short: { summaryIncludes: 'starter' },
    expected: { title: 'Sourdough note', authors: [], category: 'Note', field: 'Food & Cooking' },
    text: `The sourdough starter doubled in six hours once I moved the jar next to the radiator, so the kitchen was simply too cold before. For the weekend loaves, feed the starter at 8 pm with equal weights of rye flour and water, and mix the dough the next morning when the starter smells sweet and is full of bubbles.`,
  },
  {
    id: 's-bike-lines',
    fileName: 'bike.txt',
    short: { summaryIncludes: 'brake' },
    expected: { title: 'Bike maintenance', authors: [], category: 'Note', field: '' },
    text: `Bike maintenance
The rear brake pads are worn down to the metal and squeal on every hill.
Replace the pads and true the rear wheel before the Alps trip.
The chain was last waxed in April, at 1,200 km.`,
  },
  {
    id: 's-lighthouse-byline',
    fileName: 'lighthouse-keepers.txt',
    short: { summaryIncludes: 'Lighthouse Keepers' },
    expected: {
      title: 'A Short History of Lighthouse Keepers',
      authors: ['Sinclair'],
      year: 1994,
      category: 'Article',
      field: 'History',
    },
    text: `A Short History of Lighthouse Keepers
By Morag Sinclair, Northern Maritime Society, 1994.`,
  },
  {
    id: 's-blood-pressure-dated',
    fileName: 'blood-pressure-note.txt',
    short: { summaryIncludes: 'amlodipine' },
    expected: {
      title: 'Blood pressure note',
      authors: [],
      year: 2025,
      category: 'Note',
      field: 'Medicine',
    },
    text: `3 October 2025

Dr. Patel changed my blood pressure medication from 5 mg to 10 mg of amlodipine. Take one tablet each morning with food, check blood pressure at home twice a week and book a follow-up appointment in six weeks. Ankle swelling is a known side effect and should be reported.`,
  },
  {
    id: 's-astronomy-list',
    fileName: 'astronomy-reading.txt',
    short: { summaryIncludes: 'stars' },
    expected: {
      title: 'Reading list: introductory astronomy',
      authors: [],
      category: 'List',
      field: 'Physics',
    },
    text: `Reading list: introductory astronomy
1. The life cycle of stars and the Hertzsprung–Russell diagram
2. How telescopes gather light: mirrors, lenses and wavelength
3. Gravity, orbits and Kepler's laws
4. Measuring distances with parallax and redshift
5. Black holes and the event horizon`,
  },
  {
    id: 's-marathon-list',
    fileName: 'marathon-packing.txt',
    short: { summaryIncludes: 'shoes' },
    expected: { title: 'Packing list for the Oslo marathon', authors: [], category: 'List', field: '' },
    text: `Packing list for the Oslo marathon
- running shoes and two pairs of socks
- energy gels for every 8 km
- race number, safety pins and timing chip
- warm jacket for the start area
- train tickets back from the finish`,
  },
  {
    id: 's-rainwater-affiliation',
    fileName: 'rainwater.txt',
    short: { summaryIncludes: 'tanks' },
    expected: {
      title: 'Rainwater Harvesting for School Gardens',
      authors: ['Nowak'],
      category: 'Article',
      field: 'Environmental Science',
    },
    text: `Rainwater Harvesting for School Gardens
Tomasz Nowak, Department of Geography, University of Gdańsk

Collecting roof runoff in two 1,000-litre tanks supplied enough water for a school vegetable garden through a dry summer. Pupils measured rainfall and soil moisture weekly, and the garden needed mains water on only three days.`,
  },
  {
    id: 's-migration-message',
    fileName: 'migration-message.txt',
    short: { summaryIncludes: 'migration' },
    expected: {
      title: 'Migration message',
      authors: ['Raman'],
      category: 'Letter',
      field: 'Computer Science',
    },
    text: `Hi team,

The database migration for the booking app will run on Saturday at 6 am, and the site will be read-only for about twenty minutes. Please merge any pending pull requests by Friday noon so the release can be tested on the staging server.

Thanks,
Priya Raman`,
  },
  {
    id: 's-pta-notes',
    fileName: 'pta-notes.txt',
    short: { summaryIncludes: 'library books' },
    expected: {
      title: "Parents' association meeting notes, 2 May 2023",
      authors: [],
      year: 2023,
      category: 'Note',
      field: 'Education',
    },
    text: `Parents' association meeting notes, 2 May 2023
Present: Ama, Kofi, Efua and Yaw.
We agreed to buy twenty new library books for the Year 4 classroom and to ask the head teacher about a second school trip. The summer fair raised 640 pounds. Efua will write to parents about volunteers for the reading club.
Next meeting: 6 June.`,
  },
];
