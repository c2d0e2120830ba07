// Evaluation corpus (../documents.ts), research papers: title, author and journal lines as papers print
// them, so the enricher's metadata rules can be checked field by field.
import type { EvalDocument } from './eval-document.ts';

export const PAPERS: EvalDocument[] = [
  {
    id: 'p-soil',
    fileName: 'soil-carbon.txt',
    expected: {
      title: 'Cover Crops and Soil Carbon in Smallholder Farms',
      authors: ['Mwangi', 'Otieno'],
      year: 2021,
      journal: 'Journal of Sustainable Agriculture',
      category: 'Research Paper',
      field: 'Environmental Science',
    },
    text: `Cover Crops and Soil Carbon in Smallholder Farms
Grace Mwangi and Peter Otieno
Journal of Sustainable Agriculture, Vol. 34, No. 2 (2021), pp. 101-119

Abstract
Soil carbon is falling on many smallholder farms in East Africa. We measured soil organic carbon on 120 maize plots over four seasons, half of them planted with legume cover crops between harvests. Plots with cover crops gained 0.4 tonnes of carbon per hectare each year, while bare plots lost carbon. We argue that cover crops are the cheapest way for smallholders to store carbon and restore fertility. The gain was largest on sandy soils. Farmers reported less weeding and higher maize yields in the second year.

Introduction
Climate policy increasingly counts on agricultural soils to store carbon (Lal, 2004). Yet little is known about what works on small plots with few inputs.`,
  },
  {
    id: 'p-transformer-law',
    fileName: 'clause-review.txt',
    expected: {
      title: 'Transformer Models for Contract Clause Review',
      authors: ['Smith', 'Jones'],
      year: 2019,
      journal: 'Journal of Legal Informatics',
      category: 'Research Paper',
      field: 'Law',
    },
    text: `Transformer Models for Contract Clause Review
Jane A. Smith and Robert Jones
Journal of Legal Informatics, Vol. 12, No. 3 (2019), pp. 45-67
doi:10.1234/jli.2019.045

Abstract
Reviewing commercial contracts is slow and costly for law firms. The central problem is that clause review depends on scarce attorney time. We argue that transformer models can reduce contract review time without lowering accuracy. Building on Vaswani and Devlin, we fine-tune a model on 12,000 annotated contract clauses. Results show a 40% reduction in review time on indemnification and termination clauses.

Introduction
Contract review remains a bottleneck in legal practice (Katz, 2014). Little is known about clause-level review in commercial contracts.`,
  },
  {
    id: 'p-sleep',
    fileName: 'sleep-memory.txt',
    expected: {
      title: 'Sleep Deprivation and Working Memory in Medical Residents',
      authors: ['Hoffmann', 'Weber', 'Klein'],
      year: 2018,
      journal: 'Annals of Clinical Psychology',
      category: 'Research Paper',
      field: 'Psychology',
    },
    text: `Sleep Deprivation and Working Memory in Medical Residents
Lukas Hoffmann, Anna Weber and Jonas Klein
Annals of Clinical Psychology, Vol. 27 (2018), pp. 310-326

Abstract
Medical residents often work shifts longer than 24 hours. We tested working memory and attention in 64 residents after a night of rest and after a 28-hour shift. After the long shift, performance on the digit span task fell by 18% and reaction times rose by a quarter. Residents underestimated their own impairment. These findings show that extended shifts impair the cognitive skills that safe patient care requires. We recommend shift limits of 16 hours.`,
  },
  {
    id: 'p-graph-db',
    fileName: 'graph-queries.txt',
    expected: {
      title: 'Fast Shortest-Path Queries in Distributed Graph Databases',
      authors: ['Chen', 'Gupta'],
      year: 2022,
      journal: 'Proceedings of the International Conference on Data Engineering',
      category: 'Research Paper',
      field: 'Computer Science',
    },
    text: `Fast Shortest-Path Queries in Distributed Graph Databases
Wei Chen and Ananya Gupta
Proceedings of the International Conference on Data Engineering (2022), pp. 1204-1216

Abstract
Shortest-path queries on graphs split across many machines are slow because every hop may cross the network. We propose a partition-aware index that stores precomputed distances between boundary vertices of each partition. On road networks and social graphs with up to two billion edges, our algorithm answers queries 14 times faster than the best distributed baseline while using 30% more memory. The index is updated incrementally when edges change. Our results show that network latency, not computation, dominates distributed graph query time.`,
  },
  {
    id: 'p-microfinance',
    fileName: 'microfinance.txt',
    expected: {
      title: 'Microfinance and Household Consumption: Evidence from Rural Bangladesh',
      authors: ['Rahman'],
      year: 2016,
      journal: 'Review of Development Economics',
      category: 'Research Paper',
      field: 'Economics',
    },
    text: `Microfinance and Household Consumption: Evidence from Rural Bangladesh
Farhana Rahman
Review of Development Economics, Vol. 20, No. 4 (2016), pp. 877-899

Abstract
Does access to microcredit raise household consumption? Using a randomized rollout of loan offices across 200 villages, I find that households with access increased spending on durable goods but not on food. Average consumption rose by 3%, a small effect compared with earlier claims. Women borrowers invested more in livestock. The results suggest that microfinance smooths consumption and supports small businesses but is not a cure for poverty. Interest rates and repayment schedules matter for who benefits.`,
  },
  {
    id: 'p-coral',
    fileName: 'coral-bleaching.txt',
    expected: {
      title: 'Marine Heatwaves and Coral Bleaching on the Ningaloo Reef',
      authors: ['Thompson', 'Nguyen'],
      year: 2020,
      journal: 'Marine Ecology Letters',
      category: 'Research Paper',
      field: 'Environmental Science',
    },
    text: `Marine Heatwaves and Coral Bleaching on the Ningaloo Reef
Sarah Thompson and Minh Nguyen
Marine Ecology Letters, Vol. 9 (2020), pp. 55-71

Abstract
Marine heatwaves are becoming longer and more frequent as the climate warms. We surveyed 48 reef sites before, during and after the 2019 heatwave. Bleaching affected 62% of coral colonies where water stayed two degrees above the seasonal maximum for more than four weeks. Branching corals died more often than massive corals. Recovery after one year was partial. We conclude that heat stress duration predicts bleaching better than peak temperature, which matters for reef monitoring and early warnings.`,
  },
  {
    id: 'p-vaccine',
    fileName: 'vaccine-hesitancy.txt',
    expected: {
      title: 'Text Message Reminders and Childhood Vaccination Rates',
      authors: ['Oyelaran', 'Bello'],
      year: 2023,
      journal: 'Journal of Public Health Medicine',
      category: 'Research Paper',
      field: 'Medicine',
    },
    text: `Text Message Reminders and Childhood Vaccination Rates
Tolu Oyelaran and Musa Bello
Journal of Public Health Medicine, Vol. 45 (2023), pp. 210-222

Abstract
Many children miss the second dose of the measles vaccine. In a trial across 30 clinics, parents received text message reminders three days before each scheduled dose. Completion of the vaccine schedule rose from 61% to 74%. The reminders cost less than a dollar per child. Clinics with community health workers saw the largest gains. We conclude that simple reminders are a cost-effective way to raise vaccination coverage and reduce disease outbreaks.`,
  },
  {
    id: 'p-bead-trade',
    fileName: 'glass-beads-history.txt',
    expected: {
      title: 'Venetian Glass Beads in the West African Trade, 1500-1900',
      authors: ['Diallo'],
      year: 2017,
      journal: 'Journal of African History',
      category: 'Research Paper',
      field: 'History',
    },
    text: `Venetian Glass Beads in the West African Trade, 1500-1900
Mariama Diallo
Journal of African History, Vol. 58, No. 1 (2017), pp. 23-48

Abstract
Glass beads made in Venice were among the most traded goods on the West African coast for four centuries. Using shipping records and archive inventories, this article traces how bead colours and styles followed changing demand in African markets. I argue that African buyers, not European merchants, set the terms of the bead trade: Venetian workshops copied local designs and dropped styles that did not sell. The colonial period ended this balance when import duties favoured cheaper Bohemian beads.`,
  },
  {
    id: 'p-climate-school',
    fileName: 'heat-schools.txt',
    expected: {
      title: 'Classroom Heat and Student Learning',
      authors: ['Park', 'Alvarez'],
      year: 2021,
      journal: 'Journal of Education Economics',
      category: 'Research Paper',
      field: 'Education',
    },
    text: `Classroom Heat and Student Learning
Ji-won Park and Diego Alvarez
Journal of Education Economics, Vol. 29 (2021), pp. 540-561

Abstract
Hot classrooms reduce learning. Linking 10 million student test scores to daily temperatures, we find that each additional school day above 30 degrees reduces that year's learning by about one percent. The effect is larger for students in schools without air conditioning, which are more often in poor districts. Teachers reported that students struggle to concentrate in the heat. We argue that school cooling is an education policy, not only an energy question, and that curriculum plans should account for hot days.`,
  },
  {
    id: 'p-quantum',
    fileName: 'quantum-sensors.txt',
    expected: {
      title: 'Diamond Quantum Sensors for Magnetic Field Imaging',
      authors: ['Sato', 'Müller'],
      year: 2022,
      journal: 'Physical Review Applied',
      category: 'Research Paper',
      field: 'Physics',
    },
    text: `Diamond Quantum Sensors for Magnetic Field Imaging
Haruto Sato and Felix Müller
Physical Review Applied, Vol. 18 (2022), pp. 044012

Abstract
Nitrogen-vacancy centres in diamond are quantum sensors that detect magnetic fields at room temperature. We built a wide-field microscope that images magnetic fields from electric currents in chips with micrometre resolution. Using a pulsed laser and microwave protocol, the sensor reaches a sensitivity of 50 nanotesla. We show that the method locates faults in integrated circuits without touching the chip. Electron spin coherence limits sensitivity, and better diamond growth will improve it.`,
  },
];
