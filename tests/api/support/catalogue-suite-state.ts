// The shared state of the catalogue API suite (catalogue-suite.ts): the response shapes it reads,
// the process and users its beforeAll sets up, and a CSV reader for the export checks.
import type { KaboodleProcess } from '../../support/kaboodle-process.ts';
import type { Answer, createCatalogueClient } from './catalogue-client.ts';

export interface Doc {
  id: string;
  title: string;
  author: string;
  category: string;
  publication_year: number | null;
  hashtags: { tag: string; relevancy: number }[];
  influenced_by: string[];
  corrected_fields: string[];
  version: number;
  url: string;
  source_file_id: string;
  file_name: string;
  status: string;
  indexed: boolean;
  text?: string;
  provenance?: Record<string, { source: string; confidence: number }>;
}
export interface Item {
  id: string;
  name: string;
  category: string;
  image_url: string;
  retail_price: number | null;
  corrected_fields: string[];
  version: number;
}
export interface ErrorBody {
  message: string;
  code: string;
}

/** Set up once per process by the suite's beforeAll; the themes run in order against it. */
export interface CatalogueSuite {
  app: KaboodleProcess;
  api: ReturnType<typeof createCatalogueClient>;
  get<T>(token: string, path: string): Promise<Answer<T>>;
  alice: string;
  bob: string;
  /** A per-run word in every title, so searches find this run's documents only. */
  tag: string;
  /** alice's three documents, bob's twin of the first, alice's inventory item. */
  docs: string[];
  bobDoc: string;
  item: string;
  texts: string[];
}

/** RFC 4180 reader for the checks (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}
