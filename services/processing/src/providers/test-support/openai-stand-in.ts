// A loopback HTTP server that speaks the OpenAI API (POST /v1/embeddings, POST /v1/chat/completions):
// a STAND-IN for a hosted endpoint (OpenAI, Azure, vLLM, Ollama), which cannot be reached from
// these machines. It records every request so tests can check what the providers sent.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface OpenAiStandIn {
  baseURL: string;
  requests: RecordedRequest[];
  /** What the chat model answers: the message content (a JSON text) for a request body. */
  chatAnswer: (body: Record<string, unknown>) => string;
  /** Vector size the embeddings endpoint returns. */
  dimensions: number;
  /** Fail the next n requests with this HTTP status. */
  failNext(n: number, status: number): void;
  close(): Promise<void>;
}

/** A deterministic vector for a text (hashing trigram counts), so equal texts get equal vectors. */
export function standInVector(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  const t = ` ${text.toLowerCase()} `;
  for (let i = 0; i + 3 <= t.length; i++) {
    let h = 2166136261;
    for (let j = i; j < i + 3; j++) h = Math.imul(h ^ t.charCodeAt(j), 16777619);
    v[(h >>> 0) % dimensions]! += 1;
  }
  return v;
}

export async function startOpenAiStandIn(options: { dimensions?: number } = {}): Promise<OpenAiStandIn> {
  let failures = 0;
  let failStatus = 500;
  const standIn: Partial<OpenAiStandIn> = {
    requests: [],
    dimensions: options.dimensions ?? 64,
    chatAnswer: () => '{}',
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'invalid JSON' } }));
        return;
      }
      const path = (req.url ?? '').replace(/\?.*$/, '');
      standIn.requests!.push({ path, headers: req.headers, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      };
      if (failures > 0) {
        failures--;
        send(failStatus, { error: { message: 'stand-in failure', type: 'server_error' } });
        return;
      }
      if (req.method === 'POST' && path === '/v1/embeddings') {
        const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
        // Like OpenAI, answer base64 unless floats are asked for: a provider that forgets
        // encoding_format: 'float' gets strings and must notice.
        const asFloat = body.encoding_format === 'float';
        const dims = typeof body.dimensions === 'number' ? body.dimensions : standIn.dimensions!;
        send(200, {
          object: 'list',
          model: body.model,
          data: input.map((text, index) => {
            const v = standInVector(text, dims);
            return {
              object: 'embedding',
              index,
              embedding: asFloat ? v : Buffer.from(new Float32Array(v).buffer).toString('base64'),
            };
          }),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        });
        return;
      }
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        send(200, {
          id: 'chatcmpl-standin',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: standIn.chatAnswer!(body) },
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
        return;
      }
      send(404, { error: { message: `no route ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  standIn.baseURL = `http://127.0.0.1:${port}/v1`;
  standIn.failNext = (n, status) => {
    failures = n;
    failStatus = status;
  };
  standIn.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return standIn as OpenAiStandIn;
}
