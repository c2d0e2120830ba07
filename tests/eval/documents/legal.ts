// Evaluation corpus (../documents.ts), legal memos and a supplier letter: parties, dates and headings
// that must not be read as a title or an author.
import type { EvalDocument } from './eval-document.ts';

export const LEGAL: EvalDocument[] = [
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
];
