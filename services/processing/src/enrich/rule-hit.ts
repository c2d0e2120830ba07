// What a metadata rule found: the value, how sure it is, and the line that shows why.
import { excerpt, ProvenanceSource } from './document-enricher.ts';

export interface RuleHit<T> {
  value: T;
  confidence: number;
  source: ProvenanceSource;
  method: string;
  evidence: string;
}

export const hit = <T>(
  value: T,
  confidence: number,
  method: string,
  evidence: string,
  source = ProvenanceSource.TEXT_ANALYSIS,
): RuleHit<T> => ({
  value,
  confidence,
  source,
  method,
  evidence: excerpt(evidence),
});
