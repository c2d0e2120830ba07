// The evaluation corpus: documents written for Kaboodle's evaluation (papers with title/author/
// journal lines, essays, legal memos, business plans, reports, a letter), each with the fields a
// careful person would fill in. Expected values are what the text states, nothing inferred.

export interface EvalDocument {
  id: string;
  fileName: string;
  text: string;
  expected: {
    title: string;
    /** Surnames of every author, any order. */
    authors: string[];
    year?: number;
    journal?: string;
    category: string;
    field: string;
  };
  /** Written after the enricher's rules were frozen: never used to tune them (an honest estimate). */
  heldOut?: boolean;
  /**
   * A short document (a paragraph, a few lines, a list, a bare title and byline): it must still get
   * a one- or two-sentence summary mentioning `summaryIncludes` and at least three hashtags.
   */
  short?: { summaryIncludes: string };
}

export const EVAL_DOCUMENTS: EvalDocument[] = [
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
    id: 'e-handmade',
    fileName: 'handmade-economics.txt',
    expected: {
      title: 'The Quiet Economics of Handmade Goods',
      authors: ['Okafor'],
      category: 'Essay',
      field: 'Business',
    },
    text: `The Quiet Economics of Handmade Goods
by Amara Okafor

In this essay I argue that handmade goods survive not despite their cost but because of it. Buyers of woven baskets and carved stools pay for a story, for the hands that made the object, and for its scarcity. Markets for mass-produced goods reward low prices; markets for handmade goods reward provenance and customer trust.

The problem is that artisans rarely capture that premium. Middlemen set prices, and the makers see a small share of the retail price. Cooperatives that sell directly online change the split and the sales margin. Drawing on Polanyi and Sen, I describe how these cooperatives turn reputation into income.`,
  },
  {
    id: 'e-boredom',
    fileName: 'on-boredom.txt',
    expected: {
      title: 'In Praise of Boredom',
      authors: ['Lindqvist'],
      category: 'Essay',
      field: 'Philosophy',
    },
    text: `In Praise of Boredom
by Erik Lindqvist

I think boredom is the most underrated of our moods. We treat it as a problem to be solved with a phone, a podcast, a scroll through the news. But boredom is the feeling of a mind with nothing to hold, and it is then that the mind begins to build. In this essay I argue that a life without boredom is a life without reflection.

Philosophers from Pascal to Heidegger saw in boredom a clue to the human condition. Pascal wrote that all of humanity's problems stem from our inability to sit quietly in a room alone. Perhaps the moral task of our age is to relearn that skill, and to protect children's empty afternoons from the attention economy.`,
  },
  {
    id: 'e-cities',
    fileName: 'walkable-cities.txt',
    expected: {
      title: 'Why Our Cities Forgot How to Walk',
      authors: ['Moreau'],
      category: 'Essay',
      field: 'Sociology',
    },
    text: `Why Our Cities Forgot How to Walk
by Claire Moreau

For most of history, a city was a place you crossed on foot. In the twentieth century we rebuilt our cities around the car, and in doing so we changed who meets whom. In this essay I argue that walkable neighbourhoods are not a lifestyle preference but a foundation of community life. When children can walk to school and older people can walk to the shops, strangers become neighbours.

Following Jane Jacobs, I look at sidewalks as the social infrastructure of urban life. Inequality shows up in who is forced to drive: households in car-dependent suburbs spend a large share of income on transport.`,
  },
  {
    id: 'e-translation',
    fileName: 'translation-essay.txt',
    expected: {
      title: 'What the Translator Knows',
      authors: ['Ferreira'],
      category: 'Essay',
      field: 'Literature',
    },
    text: `What the Translator Knows
by Ines Ferreira

Every translator of a novel faces the same choice on every page: to be faithful to the words or to the music. I believe the best translations betray the sentence to keep the voice. In this essay I argue that translation is a form of literary criticism, because each choice is an interpretation of the author's intent.

Reading Borges and Nabokov on translation, I compare three English versions of the same Portuguese poem. The most literal version is the least faithful: it keeps every metaphor and loses the rhythm that made the poet's characters sound alive.`,
  },
  {
    id: 'm-noncompete',
    fileName: 'noncompete-memo.txt',
    expected: {
      title: 'Enforceability of the non-compete clause in the Harlow employment agreement',
      authors: ['Chen'],
      year: 2022,
      category: 'Legal Memo',
      field: 'Law',
    },
    text: `MEMORANDUM
PRIVILEGED AND CONFIDENTIAL
To: Maria Lopez, Partner
From: David Chen
Date: March 14, 2022
Re: Enforceability of the non-compete clause in the Harlow employment agreement

Question Presented: Whether a two-year non-compete covering the entire state is enforceable against a junior engineer under state law.

Short Answer: Probably not, because courts in this state reject restrictive covenants broader than needed to protect legitimate business interests.

Discussion
The court in Reed v. Alvarez held that a statewide restriction on a junior employee was unreasonable. The employer must show a legitimate business interest such as trade secrets. Here the engineer had no access to customer lists. A court would likely narrow or strike the clause.`,
  },
  {
    id: 'm-data-breach',
    fileName: 'breach-notification-memo.txt',
    expected: {
      title: 'Notification duties after the September data breach',
      authors: ['Novak'],
      year: 2023,
      category: 'Legal Memo',
      field: 'Law',
    },
    text: `MEMORANDUM
To: General Counsel
From: Petra Novak
Date: October 2, 2023
Re: Notification duties after the September data breach

Question Presented: Whether the company must notify customers and the regulator of the September intrusion, in which encrypted passwords and email addresses of 40,000 customers were copied.

Short Answer: Yes. The regulation requires notice to the supervisory authority within 72 hours of becoming aware of a personal data breach that poses a risk to individuals, and email addresses with password hashes meet that threshold.

Discussion
The compliance team learned of the breach on September 28. Notice to the authority is therefore already late, and counsel should file at once while documenting the reasons for the delay. Customers should be told to change their passwords.`,
  },
  {
    id: 'm-lease',
    fileName: 'lease-memo.txt',
    expected: {
      title: 'Tenant remedies for the landlord’s failure to repair the roof',
      authors: ['Adeyemi'],
      year: 2021,
      category: 'Legal Memo',
      field: 'Law',
    },
    text: `MEMORANDUM
To: Housing Clinic File
From: Kemi Adeyemi
Date: June 8, 2021
Re: Tenant remedies for the landlord’s failure to repair the roof

Question Presented: Whether our client may withhold rent because the landlord has not repaired a leaking roof for five months despite written notice.

Short Answer: Yes, but only if the client pays the withheld rent into an escrow account and the defect makes part of the flat unfit to live in.

Discussion
The lease obliges the landlord to keep the structure in repair. Courts have allowed rent abatement where a breach of the repair covenant deprives the tenant of the use of a room. Our client should send a final notice and open an escrow account before withholding any rent.`,
  },
  {
    id: 'b-baskets',
    fileName: 'basket-coop-plan.txt',
    expected: {
      title: 'Business Plan: Weave & Co. Basket Cooperative',
      authors: ['Mensah'],
      year: 2024,
      category: 'Business Plan',
      field: 'Business',
    },
    text: `Business Plan: Weave & Co. Basket Cooperative
Prepared by Kofi Mensah
January 2024

Executive Summary
Weave & Co. is a cooperative of 40 basket weavers in the Bolgatanga region that will sell handwoven baskets directly to customers in Europe through an online shop. Today the weavers sell to middlemen for about 10% of the retail price. By selling directly, the cooperative expects revenue of 180,000 euros in its second year and to pay weavers three times their current income.

Market Analysis
The target market is design-conscious households buying home decor online. Competitors are import shops that buy through agents. Our advantage is provenance: each basket carries the maker's name.

Financial Plan
We seek 60,000 euros of funding for stock, shipping and marketing, and expect to break even in month 14.`,
  },
  {
    id: 'b-coffee',
    fileName: 'coffee-cart-plan.txt',
    expected: {
      title: 'Business Plan for Morning Orbit Coffee Carts',
      authors: ['Santos'],
      year: 2023,
      category: 'Business Plan',
      field: 'Business',
    },
    text: `Business Plan for Morning Orbit Coffee Carts
Prepared by Lucia Santos
March 2023

Executive Summary
Morning Orbit will operate three electric coffee carts at suburban train stations where commuters have no coffee shop within walking distance. Each cart serves specialty coffee in reusable cups with a deposit scheme. We project 450 sales per cart per weekday and revenue of 520,000 dollars in the first full year.

Market Analysis
Commuters at the three stations number 22,000 per weekday. The nearest competitor is a cafe 1.2 kilometres away. Pricing will match chain coffee shops.

Financial Plan
Start-up costs are 135,000 dollars. We seek a bank loan and investors for the rest and expect profit from year two.`,
  },
  {
    id: 'b-solar',
    fileName: 'solar-kiosk-plan.txt',
    expected: {
      title: 'Business Plan: SunBox Solar Charging Kiosks',
      authors: ['Banda'],
      year: 2022,
      category: 'Business Plan',
      field: 'Business',
    },
    text: `Business Plan: SunBox Solar Charging Kiosks
Prepared by Chipo Banda
August 2022

Executive Summary
SunBox will install solar charging kiosks in rural markets without grid power, where people walk hours to charge their phones. Customers pay a small fee per charge or a monthly subscription. Each kiosk also rents solar lanterns. We expect 25 kiosks in two years and revenue of 300,000 dollars.

Market Analysis
In the target districts only one household in five has electricity, yet most own a mobile phone. Competitors are diesel generator owners who charge higher prices.

Financial Plan
Each kiosk costs 4,000 dollars. We seek impact investors and grant funding, with break-even per kiosk after 18 months.`,
  },
  {
    id: 'r-quarterly',
    fileName: 'q3-report.txt',
    expected: {
      title: 'Third Quarter Sales Report',
      authors: ['Osei'],
      year: 2024,
      category: 'Report',
      field: 'Business',
    },
    text: `Third Quarter Sales Report
Prepared by Ama Osei
October 2024

Summary of findings
Sales of handmade goods rose 12% in the third quarter compared with the second quarter. Tote bags and beaded jewellery sold best; stools and large bowls sold less because shipping costs rose. Online revenue now makes up 58% of total revenue. Returns fell to 2%.

Recommendations
We recommend raising the price of large bowls to cover shipping, adding two new tote bag colours before the holiday season, and offering free shipping over 80 dollars. The annual target is within reach if fourth quarter sales match last year.`,
  },
  {
    id: 'r-water',
    fileName: 'water-audit.txt',
    expected: {
      title: 'Municipal Water Quality Audit',
      authors: ['Kowalski'],
      year: 2020,
      category: 'Report',
      field: 'Environmental Science',
    },
    text: `Municipal Water Quality Audit
Prepared by Marek Kowalski
May 2020

Findings
This report presents the findings of the annual audit of drinking water quality in the eastern district. Of 340 samples, 12 exceeded the limit for nitrate, all from wells near farmland. Lead levels were below the limit everywhere except in two schools with old pipes. Chlorine levels were adequate.

Recommendations
The district should replace the pipes in the two schools, test the affected wells monthly, and work with farmers to reduce fertiliser use near the wells. Pollution from agriculture is the main threat to water quality in the district.`,
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
    id: 'l-supplier',
    fileName: 'supplier-letter.txt',
    expected: {
      title: 'Order of raffia fans for the summer collection',
      authors: ['Achieng'],
      year: 2024,
      category: 'Letter',
      field: 'Business',
    },
    text: `Re: Order of raffia fans for the summer collection
April 3, 2024

Dear Mr. Tanaka,

Thank you for your samples of hand-woven raffia fans. Our customers loved the natural colours, and we would like to order 300 fans for our summer collection, delivered by the end of May. Please confirm the price of 6 dollars per fan including packaging, and let us know whether you can add a cotton carrying pouch.

We are also interested in your woven bowls and would be grateful for your wholesale price list.

Sincerely,
Wanjiru Achieng
Purchasing Manager`,
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
  {
    id: 'e-ai-ethics',
    fileName: 'algorithmic-fairness.txt',
    expected: {
      title: 'The Moral Limits of Algorithmic Fairness',
      authors: ['Abara'],
      category: 'Essay',
      field: 'Philosophy',
    },
    text: `The Moral Limits of Algorithmic Fairness
by Nneka Abara

Computer scientists have proposed dozens of mathematical definitions of fairness for algorithms that decide who gets a loan or parole. In this essay I argue that no formula can settle what fairness means, because fairness is a moral question before it is a technical one. The definitions conflict: an algorithm cannot be equally accurate for every group and give every group equal rates of approval at once.

Following Rawls, I suggest we ask which errors we could justify to the person who bears them. This is an ethical choice that belongs to the public, not to the engineers who train the model.`,
  },
  // ---- Held out: written after the rules were frozen; do not tune the enricher on these. ----
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

  // Short documents, the kind people jot down or save (added for the short-text fixes; the enricher
  // was tuned with them in view, so they are not held out). A text that states no title is expected
  // to get its file name's words, the documented fallback; a field of '' means the text gives no
  // discipline and none should be invented.
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
