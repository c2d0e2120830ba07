// One OpenAI SDK client per process for every capability, pointed at OPENAI_BASE_URL when set
// (OpenAI, Azure's /openai/v1, vLLM, Ollama's /v1 all speak the same API).
import OpenAI from 'openai';
import type { ProcessingConfig } from './processing-config.ts';

export function createOpenAiClient(
  config: Pick<ProcessingConfig, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'OPENAI_TIMEOUT'>,
): OpenAI {
  return new OpenAI({
    // Local servers need no key, but the SDK refuses to start without one.
    apiKey: config.OPENAI_API_KEY ?? 'not-needed',
    ...(config.OPENAI_BASE_URL ? { baseURL: config.OPENAI_BASE_URL } : {}),
    timeout: config.OPENAI_TIMEOUT ?? 60_000,
    maxRetries: 2,
  });
}

/** The JSON object in a chat answer: the whole content, or the first {...} block (some servers add prose or fences). */
export function parseJsonObject(content: string | null | undefined): Record<string, unknown> {
  const raw = (content ?? '').trim();
  const candidates = [
    raw,
    raw.replace(/^```(?:json)?\s*|\s*```$/g, ''),
    raw.slice(raw.indexOf('{'), raw.lastIndexOf('}') + 1),
  ];
  for (const c of candidates) {
    if (!c.startsWith('{')) continue;
    try {
      const v = JSON.parse(c) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // try the next form
    }
  }
  throw new Error(`the model did not answer with a JSON object (got ${JSON.stringify(raw.slice(0, 80))})`);
}

export const str = (v: unknown): string =>
  typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';

export function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

export function strList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(str).filter(Boolean);
  if (typeof v === 'string')
    return v
      .split(/[,;]\s*/)
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}
