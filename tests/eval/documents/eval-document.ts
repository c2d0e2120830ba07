// One document of the evaluation corpus and the fields a careful person would fill in from it.
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
