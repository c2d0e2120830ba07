// Public surface of the document enrichment capability.
export * from './document-enricher.ts';
export { createOfflineEnricher, type OfflineEnricherOptions } from './offline-enricher.ts';
export {
  createPooledOfflineEnricher,
  type PooledEnricher,
  type PooledEnricherOptions,
} from './pooled-enricher.ts';
export { createOpenAiEnricher, type OpenAiEnricherOptions } from './openai-enricher.ts';
export { normaliseTag, reconcileTags, stemWord, tagKey, type ReconciledTag } from './tag-vocabulary.ts';
export { parseInstructions, type InstructionDirectives } from './instructions.ts';
export { classifyCategory, type Classification } from './classify.ts';
export { classifyField, guessField, FIELD_THRESHOLD, type FieldGuess } from './classify-field.ts';
export { loadNlp } from './nlp.ts';
