// The offline DocumentEnricher: file metadata first, then rules over the first page, then extractive
// NLP (wink-nlp TextRank for summary/thesis/issue, noun phrases for hashtags) and compromise for
// people as suggestions. No network; ~tens of ms per document once the models are loaded.
import { classifyField } from './classify-field.ts';
import { classifyCategory } from './classify.ts';
import {
  emptyEnrichment,
  excerpt,
  ProvenanceSource,
  type DocumentEnricher,
  type DocumentEnrichment,
  type EnrichInput,
  type EnrichOptions,
  type FieldProvenance,
  type ScoredTag,
  provenance as prov,
} from './document-enricher.ts';
import { parseInstructions } from './instructions.ts';
import {
  cleanAuthors,
  findSignature,
  findAuthor,
  findVenue,
  looksLikeNames,
  findTitle,
  findYear,
  headerLines,
  type RuleHit,
} from './metadata-rules.ts';
import { loadNlp, type Nlp, type WinkSentence } from './nlp.ts';
import { findInfluences, suggestAuthor, suggestPublisher } from './people-suggestions.ts';
import { readReceipt, receiptSummary } from './receipt.ts';
import { normaliseTag, reconcileTags } from './tag-vocabulary.ts';
import { keyPhrases, textRank } from './textrank.ts';

export interface OfflineEnricherOptions {
  /** Characters of text analysed by the NLP steps (default 60 000: ~25 pages). */
  maxAnalysedChars?: number;
  /** Hashtags at most (default 8). */
  maxTags?: number;
}

const NLP_METHOD = 'wink-nlp textrank';

const fromHit = (h: RuleHit<unknown>): FieldProvenance => prov(h.confidence, h.source, h.method, h.evidence);

const THESIS_CUES: Array<[RegExp, number]> = [
  [
    /\b(?:this|the present|our) (?:paper|essay|article|memo(?:randum)?|study|report|plan|analysis) (?:argues|contends|proposes|shows|demonstrates|concludes|recommends|claims|maintains)\b/i,
    3,
  ],
  [/\b(?:we|i) (?:argue|contend|propose|claim|maintain|conclude|recommend|show|demonstrate)\b/i, 2.5],
  [/\b(?:our|my|the) (?:central|main|core) (?:claim|argument|thesis|contention)\b/i, 3],
  [/\bthesis\b/i, 1.5],
  [/\b(?:in conclusion|we find that|results show|the short answer|the answer is|most likely)\b/i, 1.5],
  [/\b(?:our mission|we will|our goal is|aims? to)\b/i, 1],
  // A stance in a note or a letter: "I think we should take a bigger stall".
  [/\b(?:i|we) (?:think|believe|suggest)\b/i, 2],
  [/\b(?:should|must|ought to)\b/i, 0.5],
];

const ISSUE_CUES: Array<[RegExp, number]> = [
  [/\b(?:the (?:central |key |main )?(?:question|issue|problem) (?:is|presented|here)|at issue)\b/i, 3],
  [/\bwhether\b/i, 1.5],
  [/\b(?:problem|challenge|gap|shortcoming|difficulty|pain point|bottleneck)s?\b/i, 1.5],
  [/\b(?:little is known|remains unclear|poorly understood|lack of|fail(?:s|ed)? to|struggle)\b/i, 2],
  [/\b(?:need for|there is no|too (?:slow|costly|expensive))\b/i, 1],
];

const SECTION = (labels: string): RegExp => new RegExp(`^\\s*(?:${labels})\\s*[:.\\n]\\s*(.+)`, 'im');

export function createOfflineEnricher(options: OfflineEnricherOptions = {}): DocumentEnricher {
  const maxChars = options.maxAnalysedChars ?? 60_000;
  const maxTags = options.maxTags ?? 8;

  async function enrich(input: EnrichInput, opts: EnrichOptions = {}): Promise<DocumentEnrichment> {
    opts.signal?.throwIfAborted();
    const out = emptyEnrichment();
    const text = (input.text ?? '').replace(/\r\n?/g, '\n');
    if (text.trim() === '') return out;
    const metadata = input.metadata ?? {};
    const directives = parseInstructions(input.instructions);
    const firstPage =
      input.pages?.[0]?.text && input.pages[0].text.trim().length > 80 ? input.pages[0].text : text;
    const lines = headerLines(firstPage);
    const nlp = await loadNlp();
    opts.signal?.throwIfAborted();

    // Bibliographic fields: metadata → rules → suggestions; explicit instructions win.
    const title = findTitle(lines, metadata, input.fileName);
    if (title) {
      out.title = title.value;
      out.provenance.title = fromHit(title);
    }
    const titleLines = title && 'lines' in title ? title.lines : undefined;
    const titleLine = titleLines
      ? lines[titleLines[0]]
      : title
        ? lines.find((l) => title.value.startsWith(l))
        : undefined;
    const titleEnd = titleLines?.[1] ?? (titleLine ? lines.indexOf(titleLine) : undefined);
    // A letter is signed by its writer: the names at the top are the addressee's.
    const letter = lines.slice(0, 40).some((l) => /^(?:dear|hi|hello)\b/i.test(l));
    const author =
      (letter ? findSignature(text) : null) ??
      findAuthor(lines, metadata, titleEnd) ??
      findSignature(text) ??
      suggestAuthor(
        nlp,
        lines.slice(0, 10).filter((l) => !readsAsProse(l)),
      );
    if (author) {
      out.author = author.value;
      out.provenance.author = fromHit(author);
    }
    // The line the author stands on (a metadata author is looked for in the first lines).
    const bylineLine = author
      ? (lines.find((l) => excerpt(l) === author.evidence) ??
        lines
          .slice(0, 8)
          .find(
            (l) => !readsAsProse(l) && author.value.split(', ').some((n) => n.length > 3 && l.includes(n)),
          ))
      : undefined;
    const year = findYear(lines, metadata, bylineLine, titleEnd ?? 0, title?.value);
    if (year) {
      out.publicationYear = year.value;
      out.provenance.publication_year = fromHit(year);
    }
    // An affiliation in the byline ("Department of Geography, University of Gdańsk") is not a publisher.
    const publisherLines = lines.filter((l) => l !== bylineLine || /\b(?:press|publish\w*)\b/i.test(l));
    const journal =
      findVenue(
        lines,
        text,
        metadata,
        title && titleLines ? { value: title.value, first: titleLines[0], last: titleLines[1] } : undefined,
        looksLikeNames,
      ) ?? suggestPublisher(nlp, publisherLines, titleLine);
    if (journal) {
      out.journalPublisher = journal.value;
      out.provenance.journal_publisher = fromHit(journal);
    }

    // Sentences for the extractive steps. Lines the metadata was read from (title, byline, journal,
    // date) and other non-prose lines at the top are left out; prose at the top is kept, because in
    // a short note the top lines are all there is.
    const analysed = text.slice(0, maxChars);
    const metaLines = new Set<string>();
    for (const l of lines.slice(0, 12)) {
      // The title's line (a "Re:" line holds it with its label); a file-name title marks no line.
      if (
        l === titleLine ||
        (title &&
          title.method !== 'rule: file name' &&
          l.includes(title.value) &&
          l.length <= title.value.length + 20)
      )
        metaLines.add(l);
      for (const h of [author, year, journal]) if (h && excerpt(l) === h.evidence) metaLines.add(l);
    }
    const headerSet = new Set(lines.slice(0, 12));
    // A list item or a short sentence ("Buy tiles on Friday.") is content even among the top lines.
    const content = (l: string) =>
      readsAsProse(l) || BULLET.test(l) || (/\p{Ll}.*[.!?]$/u.test(l) && l.split(' ').length >= 3);
    const skipLine = (l: string) => headerSet.has(l) && (metaLines.has(l) || !content(l));
    const prose = await proseSentences(nlp, analysed, skipLine);
    const { sentences, listItems } = prose;
    const ranks = textRank(sentences);
    opts.signal?.throwIfAborted();

    if (prose.isList) {
      // A list's gist is its heading and its first items, not its "most central" item.
      const lead = ((prose.listLead ?? out.title) || 'List').replace(/[:.\s]+$/, '');
      // Items while the summary stays readable (about 200 characters), at least two.
      const shown: string[] = [];
      for (const item of listItems) {
        if (shown.length >= 2 && lead.length + shown.join('; ').length + item.length > 200) break;
        shown.push(item.replace(/[.;,:]+$/, ''));
      }
      const more = shown.length < listItems.length ? '; …' : '.';
      out.summary = `${lead}${lead.includes(':') ? ' —' : ':'} ${shown.join('; ')}${more}`;
      out.provenance.summary = prov(
        0.5,
        ProvenanceSource.TEXT_ANALYSIS,
        'rule: list heading and first items',
        `${listItems.length} items`,
      );
    } else if (sentences.length > 0) {
      let k = directives.summarySentences ?? (sentences.length >= 12 ? 3 : sentences.length >= 5 ? 2 : 1);
      // A mild lead bias: openings state what a text is about more often than its middle does.
      const scored = sentences
        .map((s, i) => ({ i, score: (ranks[i] ?? 0) * (1 + 0.5 / (1 + i / 4)) }))
        .sort((a, b) => b.score - a.score);
      // One short sentence says little: a short text gets two when its best one is under 12 words.
      if (
        !directives.summarySentences &&
        k === 1 &&
        sentences.length > 1 &&
        wordCount(sentences[scored[0]!.i]!) < 12
      )
        k = 2;
      const picked = scored
        .slice(0, k)
        .map((s) => s.i)
        .sort((a, b) => a - b);
      out.summary = picked.map((i) => tidy(sentences[i]!.text)).join(' ');
      out.provenance.summary = prov(
        sentences.length >= 5 ? 0.6 : 0.45,
        ProvenanceSource.TEXT_ANALYSIS,
        NLP_METHOD,
        `sentences ${picked.map((i) => i + 1).join(', ')} of ${sentences.length}`,
      );
    } else if (title && title.method !== 'rule: file name') {
      // No prose at all (a bare title and byline): say what the document is, from what it states.
      out.summary = `${title.value}${author ? `, by ${author.value}` : ''}${year ? ` (${year.value})` : ''}.`;
      out.provenance.summary = prov(
        0.2,
        ProvenanceSource.TEXT_ANALYSIS,
        'rule: title and byline (no prose)',
        title.evidence,
      );
    }

    // A receipt says who, what, how much and when; it argues nothing, so it has no thesis or issue.
    const receipt = readReceipt(text);
    if (receipt) {
      out.summary = receiptSummary(receipt);
      out.provenance.summary = prov(
        0.7,
        ProvenanceSource.TEXT_ANALYSIS,
        'rule: receipt (seller, items, total, date)',
        `${receipt.items.length} items, total ${receipt.total}`,
      );
    }
    // A thesis only where the text argues (cue phrases or a labelled section), and never the whole
    // summary again: a note that only states facts has none.
    const thesis = receipt
      ? null
      : pickByCues(
          analysed,
          sentences,
          ranks,
          THESIS_CUES,
          SECTION('thesis|short answer|conclusion|brief answer|summary of argument|mission'),
          (t) => t === out.summary.trim(),
        );
    if (thesis) {
      out.thesis = thesis.text;
      out.provenance.thesis = prov(
        thesis.confidence,
        ProvenanceSource.TEXT_ANALYSIS,
        thesis.method,
        thesis.text,
      );
    }
    const issue = receipt
      ? null
      : pickByCues(
          analysed,
          sentences,
          ranks,
          ISSUE_CUES,
          SECTION(
            'question presented|questions presented|issue|issues|problem|the problem|problem statement',
          ),
          (t) => t === out.thesis,
        );
    if (issue) {
      out.issue = issue.text;
      out.provenance.issue = prov(issue.confidence, ProvenanceSource.TEXT_ANALYSIS, issue.method, issue.text);
    }

    const influences = findInfluences(nlp, analysed, text, out.author);
    if (influences.names.length > 0) {
      out.influencedBy = influences.names;
      out.provenance.influenced_by = prov(
        influences.confidence,
        ProvenanceSource.TEXT_ANALYSIS,
        influences.method,
        influences.evidence,
      );
    }

    const field = directives.field ? null : classifyField(analysed);
    if (directives.field) {
      out.field = directives.field;
      out.provenance.field = prov(
        1,
        ProvenanceSource.INSTRUCTIONS,
        'user instructions',
        `field: ${directives.field}`,
      );
    } else if (field) {
      out.field = field.label;
      out.provenance.field = prov(
        field.confidence,
        ProvenanceSource.TEXT_ANALYSIS,
        'keyword lexicon',
        field.cues.join(', '),
      );
    }
    if (directives.category) {
      out.category = directives.category;
      out.provenance.category = prov(
        1,
        ProvenanceSource.INSTRUCTIONS,
        'user instructions',
        `category: ${directives.category}`,
      );
    } else {
      const category = receipt
        ? { label: 'Receipt', confidence: 0.8, cues: ['a total line and priced items'] }
        : classifyCategory(text, {
            title: out.title,
            byline: !!bylineLine,
            isList: prose.isList,
          });
      out.category = category.label;
      out.provenance.category = prov(
        category.confidence,
        ProvenanceSource.TEXT_ANALYSIS,
        'structure and cue rules',
        category.cues.join(', ') || 'no cues',
      );
    }

    // Hashtags: requested first, then the user's vocabulary found in the text, then key phrases.
    // The title counts as one more (top-ranked) sentence: it names the subject in the fewest words.
    const titleSentence =
      out.title && title?.method !== 'rule: file name' ? nlp.sentences(out.title)[0] : undefined;
    // A list's items are its content even when they are one word ("milk", "passport").
    const phraseSentences = prose.isList
      ? nlp.sentences(listItems.map((i) => `${i.replace(/[.;,:]+$/, '')}.`).join(' '))
      : sentences;
    const phraseRanks = prose.isList ? phraseSentences.map(() => 1 / phraseSentences.length) : ranks;
    const phrases = titleSentence
      ? keyPhrases(
          [titleSentence, ...phraseSentences],
          [Math.max(1 / (phraseSentences.length + 1), ...phraseRanks), ...phraseRanks],
        )
      : keyPhrases(phraseSentences, phraseRanks);
    const top = phrases[0]?.score ?? 1;
    const candidates: ScoredTag[] = phrases.map((p) => ({
      tag: p.phrase,
      relevancy: 0.2 + 0.7 * (p.score / top),
    }));
    const lower = analysed.toLowerCase();
    for (const e of input.existingTags ?? []) {
      const words = normaliseTag(e.tag).split('-').filter(Boolean);
      if (words.length === 0) continue;
      const re = new RegExp(`\\b${words.map((w) => w.replace(/[^a-z0-9]/g, '')).join('[\\s-]+')}`, 'g');
      const n = lower.match(re)?.length ?? 0;
      if (n > 0) candidates.push({ tag: e.tag, relevancy: Math.min(0.85, 0.35 + 0.1 * n) });
    }
    if (out.field)
      candidates.push({ tag: out.field, relevancy: 0.5 * (out.provenance.field?.confidence ?? 0.5) + 0.2 });
    const requested = directives.tags.map((t) => ({ tag: t, relevancy: 1 }));
    const reconciled = reconcileTags([...requested, ...candidates], input.existingTags, {
      max: Math.max(maxTags, requested.length),
    });
    // Requested tags are never crowded out by found ones.
    out.hashtags = reconciled.map(({ tag, relevancy }) => ({ tag, relevancy }));
    if (out.hashtags.length > 0) {
      const reused = reconciled.filter((t) => t.existing).length;
      out.provenance.hashtags = prov(
        requested.length > 0 ? 0.9 : 0.55,
        requested.length > 0 ? ProvenanceSource.INSTRUCTIONS : ProvenanceSource.TEXT_ANALYSIS,
        `wink-nlp noun phrases; ${reused} reused from the user's tags`,
        phrases
          .slice(0, 5)
          .map((p) => p.phrase)
          .join(', '),
      );
    }

    // Instructions naming a value override what was found.
    if (directives.title) {
      out.title = directives.title;
      out.provenance.title = prov(
        1,
        ProvenanceSource.INSTRUCTIONS,
        'user instructions',
        `title: ${directives.title}`,
      );
    }
    if (directives.author) {
      out.author = cleanAuthors(directives.author);
      out.provenance.author = prov(
        1,
        ProvenanceSource.INSTRUCTIONS,
        'user instructions',
        `author: ${directives.author}`,
      );
    }
    if (directives.year) {
      out.publicationYear = directives.year;
      out.provenance.publication_year = prov(
        1,
        ProvenanceSource.INSTRUCTIONS,
        'user instructions',
        `year: ${directives.year}`,
      );
    }
    if (!out.title && out.summary && sentences[0]) {
      out.title = shortTitle(sentences[0].text);
      out.provenance.title = prov(
        0.2,
        ProvenanceSource.TEXT_ANALYSIS,
        'rule: first sentence',
        sentences[0]!.text,
      );
    }
    return out;
  }

  return { provider: 'local', enrich };
}

/** A sentence as a title: without its full stop, cut at a word before 80 characters. */
function shortTitle(sentence: string): string {
  const t = tidy(sentence).replace(/[.!]+$/, '');
  if (t.length <= 80) return t;
  const cut = t.slice(0, 79);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 40)).replace(/[\s,;:–—-]+$/, '')}…`;
}

function tidy(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const wordCount = (s: WinkSentence): number => s.tokens.filter((t) => t.type === 'word').length;

/** A line that reads as running text rather than a title, byline or heading (mostly lower-case words). */
export function readsAsProse(line: string): boolean {
  const words = line.split(' ').filter((w) => /\p{L}/u.test(w));
  if (words.length > 20) return true;
  if (words.length < 5) return false;
  const lower = words.filter((w) => /^[("'“‘]?\p{Ll}/u.test(w)).length;
  return lower / words.length >= 0.4;
}

const BULLET = /^(?:[-*•–·▪◦○►✓✔]|\d{1,2}[.)]|\(?[a-z][.)]|\[[ xX]?\])\s+(.+)$/;

export interface ProseSentences {
  sentences: WinkSentence[];
  /** Bulleted or numbered items, marker stripped, in order. */
  listItems: string[];
  /** Most of the body is list items (a packing list, a reading list). */
  isList: boolean;
  /** The line introducing the first list, if any ("Bring to the fair:"). */
  listLead?: string;
}

/**
 * Prose sentences: paragraphs with single line breaks joined (short lines that end without
 * punctuation become sentences of their own: note lines, not a wrapped paragraph), list items
 * one sentence each, 6–80 words; a short text with fewer than two of those keeps sentences of 3–5
 * words too. Long texts yield to the event loop every few paragraphs (wink-nlp is synchronous).
 */
async function proseSentences(
  nlp: Nlp,
  text: string,
  skipLine: (line: string) => boolean,
): Promise<ProseSentences> {
  const all: Array<{ s: WinkSentence; words: number }> = [];
  const listItems: string[] = [];
  let listLead: string | undefined;
  let bodyChars = 0;
  let itemChars = 0;
  let chars = 0;
  for (const para of text.split(/\n\s*\n/)) {
    chars += para.length;
    if (chars > 8000) {
      chars = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const lines = para
      .split('\n')
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    const body = lines.filter((l) => !skipLine(l));
    if (body.length === 0) continue;
    let joined = '';
    body.forEach((l, i) => {
      bodyChars += l.length;
      const item = BULLET.exec(l);
      if (item) {
        itemChars += l.length;
        if (listItems.length === 0 && i > 0 && !BULLET.test(body[i - 1]!)) listLead = body[i - 1];
        listItems.push(item[1]!);
      }
      const line = item ? item[1]! : l;
      const next = body[i + 1];
      // An item, or a short line ending without punctuation before a capitalised line, ends a sentence.
      const ends =
        !/[.!?:;,…"”)]$/.test(line) &&
        (item || (next !== undefined && (BULLET.test(next) || (line.length < 50 && /^\p{Lu}/u.test(next)))));
      joined += `${line}${ends ? '.' : ''} `;
    });
    for (const s of nlp.sentences(joined)) {
      // Label lines of memos and minutes are not prose.
      if (
        /^\s*(?:to|from|re|cc|date|subject|present|attendees|apologies|absent|next meeting|venue|time|where|when)\s*:/i.test(
          s.text,
        )
      )
        continue;
      all.push({ s, words: wordCount(s) });
    }
  }
  let kept = all.filter((x) => x.words >= 6 && x.words <= 80);
  if (kept.length < 2 && text.length < 3000) kept = all.filter((x) => x.words >= 3 && x.words <= 80);
  // Numbered section headings ("1. Market") over paragraphs are not a list: items must be most of the text.
  const isList = listItems.length >= 3 && itemChars * 2 >= bodyChars;
  return { sentences: kept.map((x) => x.s), listItems, isList, ...(listLead ? { listLead } : {}) };
}

interface Picked {
  text: string;
  confidence: number;
  method: string;
}

function pickByCues(
  text: string,
  sentences: WinkSentence[],
  ranks: number[],
  cues: Array<[RegExp, number]>,
  section: RegExp,
  /** Sentences that may not be picked (already the summary, or the thesis). */
  taken: (sentence: string) => boolean,
): Picked | null {
  const labelled = section.exec(text);
  if (labelled) {
    const first = labelled[1]!.split(/(?<=[.!?])\s+/)[0]!.trim();
    if (first.split(' ').length >= 4 && !taken(tidy(first)))
      return { text: tidy(first), confidence: 0.8, method: 'rule: labelled section' };
  }
  const n = Math.max(1, sentences.length);
  let best: { i: number; score: number; cue: number } | null = null;
  sentences.forEach((s, i) => {
    if (taken(tidy(s.text))) return;
    let cue = 0;
    for (const [re, w] of cues) if (re.test(s.text)) cue += w;
    if (cue === 0) return;
    const score = cue + (ranks[i] ?? 0) * n;
    if (!best || score > best.score) best = { i, score, cue };
  });
  const found = best as { i: number; score: number; cue: number } | null;
  if (found) {
    return {
      text: tidy(sentences[found.i]!.text),
      confidence: Math.min(0.75, 0.35 + found.cue * 0.1),
      method: 'cue phrases + textrank',
    };
  }
  // No sentence argues or asks anything: no thesis (the most central sentence is the summary's).
  return null;
}
