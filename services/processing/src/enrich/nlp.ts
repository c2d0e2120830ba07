// wink-nlp (sentences, POS, lemmas; 4.6 MB model inside npm) and compromise (people, organisations)
// loaded once per process on first use.
import type { ItsHelpers } from 'wink-nlp';

export interface WinkToken {
  value: string;
  normal: string;
  lemma: string;
  pos: string;
  type: string;
  stop: boolean;
}

export interface WinkSentence {
  text: string;
  tokens: WinkToken[];
}

export interface Nlp {
  sentences(text: string): WinkSentence[];
  people(text: string): string[];
  organizations(text: string): string[];
}

let shared: Promise<Nlp> | null = null;

export function loadNlp(): Promise<Nlp> {
  shared ??= (async () => {
    const winkMod = (await import('wink-nlp')) as unknown as { default: (model: unknown) => WinkInstance };
    const modelMod = (await import('wink-eng-lite-web-model')) as unknown as { default: unknown };
    const compromiseMod = (await import('compromise')) as unknown as { default: CompromiseFn };
    const wink = winkMod.default(modelMod.default);
    const its = wink.its;
    const compromise = compromiseMod.default;
    return {
      sentences(text: string) {
        const doc = wink.readDoc(text);
        const out: WinkSentence[] = [];
        doc.sentences().each((s: WinkItem) => {
          // Whole-sentence arrays: one call per attribute, not one per token.
          const tk = s.tokens();
          const value = tk.out(its.value) as string[];
          const normal = tk.out(its.normal) as string[];
          const lemma = tk.out(its.lemma) as string[];
          const pos = tk.out(its.pos) as string[];
          const type = tk.out(its.type) as string[];
          const stop = tk.out(its.stopWordFlag) as unknown as boolean[];
          const tokens = value.map((v, i) => ({
            value: v,
            normal: normal[i] ?? v.toLowerCase(),
            lemma: lemma[i] ?? v.toLowerCase(),
            pos: pos[i] ?? 'X',
            type: type[i] ?? 'word',
            stop: stop[i] ?? false,
          }));
          out.push({ text: s.out() as string, tokens });
        });
        return out;
      },
      people: (text: string) => compromise(text).people().out('array') as string[],
      organizations: (text: string) => compromise(text).organizations().out('array') as string[],
    };
  })().catch((err: unknown) => {
    shared = null;
    throw new Error(`loading the NLP models: ${(err as Error).message}`, { cause: err });
  });
  return shared;
}

interface WinkItem {
  out(f?: unknown): unknown;
  tokens(): { out(f: unknown): unknown };
}
interface WinkInstance {
  its: ItsHelpers;
  readDoc(text: string): { sentences(): { each(fn: (s: WinkItem) => void): void } };
}
type CompromiseFn = (text: string) => {
  people(): { out(f: 'array'): unknown };
  organizations(): { out(f: 'array'): unknown };
};
