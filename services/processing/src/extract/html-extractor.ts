// Web pages (fetched from pasted URLs) → the main article's text with @mozilla/readability on a
// linkedom DOM; title, author and date come from the page's metadata (Open Graph, article:*,
// JSON-LD, <meta name>, <time>), read before readability rewrites the document.
import { Readability } from '@mozilla/readability';
import iconv from 'iconv-lite';
import { parseHTML } from 'linkedom';
import { ExtractionError, type ExtractedMetadata } from './extractor.ts';
import { type ExtractContext, type FormatResult, tidyText } from './extract-context.ts';
import { decodeText } from './text-decode.ts';

// Minimal structural view of the DOM we walk (linkedom's types are not the lib.dom ones).
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}
interface DomElement extends DomNode {
  getAttribute(name: string): string | null;
}
interface DomDocument {
  title: string;
  documentElement: DomElement;
  body: DomNode | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export async function extractHtml(bytes: Uint8Array, ctx: ExtractContext): Promise<FormatResult> {
  const html = decodeHtml(bytes);
  const document = parseHTML(html).document as unknown as DomDocument;
  const pageMeta = readPageMetadata(document);
  const declaredLanguage =
    document.documentElement?.getAttribute('lang')?.split('-')[0]?.toLowerCase() || undefined;

  let text = '';
  let article: ReturnType<Readability['parse']>;
  try {
    // Readability mutates its document, so it gets its own parse.
    const forReadability = parseHTML(html).document;
    article = new Readability(forReadability as unknown as Document, {
      charThreshold: 200,
      keepClasses: false,
    }).parse();
  } catch {
    article = null; // not an article layout: fall back to the whole body below
  }
  if (article?.content) {
    text = blockText(
      parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document
        .body as unknown as DomNode,
    );
  }
  if (text.trim().length === 0 && document.body) {
    ctx.warnings.push('No main article was found on the page; all of its text was kept.');
    text = blockText(document.body);
  }
  const metadata: ExtractedMetadata = { ...pageMeta };
  const title = pageMeta.title ?? clean(article?.title) ?? clean(document.title);
  const author = pageMeta.author ?? clean(article?.byline);
  const created = pageMeta.created ?? iso(article?.publishedTime ?? undefined);
  if (title) metadata.title = title;
  if (author) metadata.author = author;
  if (created) metadata.created = created;
  const siteName = pageMeta.siteName ?? clean(article?.siteName);
  if (siteName) metadata.siteName = siteName;
  const excerpt = pageMeta.excerpt ?? clean(article?.excerpt);
  if (excerpt) metadata.excerpt = excerpt;
  if (ctx.url) metadata.extra = { ...metadata.extra, url: ctx.url };
  return { text: tidyText(text), metadata, ...(declaredLanguage ? { declaredLanguage } : {}) };
}

/** Bytes → string, honouring a <meta charset> when the bytes are not valid UTF-8. */
function decodeHtml(bytes: Uint8Array): string {
  const decoded = decodeText(bytes);
  if (!decoded)
    throw new ExtractionError('corrupt', 'The page contains binary data and could not be read as HTML.');
  if (decoded.encoding === 'utf-8' || decoded.hadBom) return decoded.text;
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const charset = /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (charset && iconv.encodingExists(charset)) {
    return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset);
  }
  return decoded.text;
}

const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
]);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'HEAD']);

/** Text with paragraph breaks kept (textContent would run paragraphs together). */
function blockText(root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode): void => {
    if (node.nodeType === 3) {
      out.push((node.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toUpperCase();
    if (SKIP.has(name)) return;
    const block = BLOCKS.has(name);
    if (block)
      out.push(name === 'BR' || name === 'TD' || name === 'TH' ? (name === 'BR' ? '\n' : ' ') : '\n\n');
    for (let i = 0; i < node.childNodes.length; i++) walk(node.childNodes[i]!);
    if (block && name !== 'BR' && name !== 'TD' && name !== 'TH') out.push('\n\n');
  };
  walk(root);
  return out
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n');
}

function clean(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const t = value.replace(/\s+/g, ' ').trim();
  return t.length > 0 ? t : undefined;
}

function iso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const d = new Date(value.trim());
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function readPageMetadata(document: DomDocument): ExtractedMetadata {
  const meta = (...keys: string[]): string | undefined => {
    for (const key of keys) {
      const el =
        document.querySelector(`meta[property="${key}"]`) ??
        document.querySelector(`meta[name="${key}"]`) ??
        document.querySelector(`meta[itemprop="${key}"]`);
      const value = clean(el?.getAttribute('content'));
      if (value) return value;
    }
    return undefined;
  };
  const ld = readJsonLd(document);
  const metadata: ExtractedMetadata = {};
  const title = meta('og:title', 'twitter:title', 'citation_title', 'dc.title', 'DC.title') ?? ld.title;
  const author =
    meta(
      'author',
      'article:author',
      'citation_author',
      'dc.creator',
      'DC.creator',
      'parsely-author',
      'sailthru.author',
    ) ??
    ld.author ??
    clean(document.querySelector('[rel="author"]')?.textContent);
  const dateText =
    meta(
      'article:published_time',
      'citation_publication_date',
      'citation_date',
      'date',
      'dc.date',
      'DC.date',
      'pubdate',
      'datePublished',
    ) ??
    ld.datePublished ??
    clean(document.querySelector('time[datetime]')?.getAttribute('datetime'));
  const modified = meta('article:modified_time', 'dateModified') ?? ld.dateModified;
  const publisher = meta('citation_publisher', 'citation_journal_title', 'dc.publisher') ?? ld.publisher;
  const siteName = meta('og:site_name', 'application-name');
  const excerpt = meta('description', 'og:description', 'twitter:description');
  const keywords = meta('keywords', 'news_keywords');
  if (title) metadata.title = title;
  if (author && !/^https?:\/\//.test(author)) metadata.author = author;
  const created = iso(dateText);
  if (created) metadata.created = created;
  const mod = iso(modified);
  if (mod) metadata.modified = mod;
  if (publisher) metadata.publisher = publisher;
  if (siteName) metadata.siteName = siteName;
  if (excerpt) metadata.excerpt = excerpt;
  if (keywords)
    metadata.keywords = keywords
      .split(/[,;]\s*/)
      .map((k) => k.trim())
      .filter(Boolean);
  return metadata;
}

interface LdFields {
  title?: string;
  author?: string;
  datePublished?: string;
  dateModified?: string;
  publisher?: string;
}

function readJsonLd(document: DomDocument): LdFields {
  const scripts = document.querySelectorAll('script[type="application/ld+json"]');
  const nameOf = (v: unknown): string | undefined => {
    if (typeof v === 'string') return clean(v);
    if (Array.isArray(v)) return v.map(nameOf).filter(Boolean).join(', ') || undefined;
    if (v && typeof v === 'object' && 'name' in v) return nameOf((v as { name: unknown }).name);
    return undefined;
  };
  for (let i = 0; i < scripts.length; i++) {
    let data: unknown;
    try {
      data = JSON.parse(scripts[i]!.textContent ?? '');
    } catch {
      continue;
    }
    const items: unknown[] = Array.isArray(data) ? data : [data];
    const graph = items.flatMap((item) =>
      item && typeof item === 'object' && Array.isArray((item as { '@graph'?: unknown[] })['@graph'])
        ? (item as { '@graph': unknown[] })['@graph']
        : [item],
    );
    for (const node of graph) {
      if (!node || typeof node !== 'object') continue;
      const o = node as Record<string, unknown>;
      const type = String(o['@type'] ?? '');
      if (!/Article|Posting|Report|ScholarlyArticle|WebPage|Blog/i.test(type)) continue;
      return {
        title: nameOf(o.headline) ?? nameOf(o.name),
        author: nameOf(o.author),
        datePublished: nameOf(o.datePublished),
        dateModified: nameOf(o.dateModified),
        publisher: nameOf(o.publisher),
      };
    }
  }
  return {};
}
