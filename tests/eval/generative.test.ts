// The generative column of the evaluation, run against the loopback stand-in for an
// OpenAI-compatible endpoint (a hosted model cannot be reached here). The stand-in "model" answers
// from what the request hands it (the offline findings and the text), so its column must match
// the offline one where it copies them; then the endpoint fails and every document still gets the
// offline result through the fallback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startOpenAiStandIn,
  type OpenAiStandIn,
} from '../../services/processing/src/providers/test-support/openai-stand-in.ts';
import { EVAL_DOCUMENTS } from './documents.ts';
import { compareWithModel } from './generative.ts';

let standIn: OpenAiStandIn;
beforeAll(async () => {
  standIn = await startOpenAiStandIn();
});
afterAll(async () => {
  await standIn.close();
});

/** A stand-in model: the hints sent as the offline findings, and the first sentence as summary. */
function answerFromRequest(body: Record<string, unknown>): string {
  const user = (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')!;
  const hints = /Found in the file's metadata and first page: (\{.*\})/.exec(user.content);
  const found = hints ? (JSON.parse(hints[1]!) as Record<string, unknown>) : {};
  const text = user.content.split('Document text:\n')[1] ?? '';
  const first = /[^.!?\n]{20,}[.!?]/.exec(text)?.[0]?.trim() ?? '';
  return JSON.stringify({ ...found, summary: first, thesis: '', hashtags: ['stand-in'] });
}

describe('the generative column (offline rules beside an OpenAI-compatible model)', () => {
  it('prints both columns over the whole written set, one model request per document', async () => {
    standIn.requests.length = 0;
    standIn.chatAnswer = answerFromRequest;
    const [offline, model] = await compareWithModel({ baseURL: standIn.baseURL, model: 'stand-in' });
    expect(standIn.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(
      EVAL_DOCUMENTS.length,
    );
    expect(model.failed).toEqual([]);
    const cell = (c: typeof offline, f: string) => c.fields.find((x) => x.field === f)!;
    // What the stand-in copies from the hints is read as well as offline.
    for (const f of ['title', 'author', 'publication_year', 'journal_publisher'])
      expect(cell(model, f).correct, f).toBe(cell(offline, f).correct);
    expect(cell(model, 'summary given').correct).toBeGreaterThanOrEqual(
      cell(offline, 'summary given').correct,
    );
    expect(cell(model, 'thesis not the summary').correct).toBe(EVAL_DOCUMENTS.length);
  }, 120_000);

  it('falls back to the offline rules when the endpoint fails or answers no JSON', async () => {
    // The first document's request fails three times (the SDK's two retries included); then the
    // model answers prose instead of JSON for every other one.
    standIn.chatAnswer = () => 'Sure! Here is what I found.';
    standIn.failNext(3, 503);
    const [offline, model] = await compareWithModel({ baseURL: standIn.baseURL, model: 'stand-in' });
    expect(model.failed).toEqual([]);
    expect(model.fields).toEqual(offline.fields);
  }, 120_000);
});
