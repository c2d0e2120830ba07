// Evaluation corpus (../documents.ts), business plans and reports: organisations as authors, periods
// and figures that must not be read as publication years.
import type { EvalDocument } from './eval-document.ts';

export const PLANS_AND_REPORTS: EvalDocument[] = [
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
];
