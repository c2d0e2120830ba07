// Following uploads to their end, with operations found in the document by their shape (not by
// name): the upload is a signed-in operation with a multipart body holding a binary field, the status
// is a GET with one path parameter whose answer has a `status` that can be `failed` and an `error`.
// Canaries (each person's files no case may touch) and the hostile corpus go through here.
import { randomBytes } from 'node:crypto';
import type { Accounts, Person } from './accounts.ts';
import { fillPath, resolve } from './openapi.ts';
import type { FuzzOperation, JsonSchema, OpenApiDocument } from './openapi.ts';
import { exchange } from './wire.ts';
import type { WireResponse } from './wire.ts';
import type { HostPort } from './accounts.ts';

export interface Located {
  op: FuzzOperation;
  at: HostPort;
  /** How the report names it (METHOD path, and the process when split). */
  route?: string;
}

export interface UploadRoutes {
  upload: Located & { field: string; extraFields: Record<string, JsonSchema> };
  status: Located & { param: string };
}

/** The reason a person reads when processing gave up on a fault of ours (processing's FAULT_REASON). */
export const FAULT_REASON_PATTERN = /on our side/i;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function findUploadRoutes(
  doc: OpenApiDocument,
  located: readonly Located[],
): UploadRoutes | undefined {
  let upload: UploadRoutes['upload'] | undefined;
  let status: UploadRoutes['status'] | undefined;
  for (const l of located) {
    const { op } = l;
    if (!upload && op.signedIn && op.method === 'POST' && op.body?.multipart) {
      const props = resolve(doc, op.body.multipart).properties ?? {};
      const field = Object.entries(props).find(([, s]) => resolve(doc, s).format === 'binary')?.[0];
      if (field) upload = { ...l, field, extraFields: props };
    }
    const pathParams = op.params.filter((p) => p.in === 'path');
    const answer = op.answers.get(200);
    if (!status && op.signedIn && op.method === 'GET' && pathParams.length === 1 && answer) {
      const props = resolve(doc, answer).properties ?? {};
      const st = props.status ? resolve(doc, props.status) : undefined;
      if (st?.enum?.includes('failed') && props.error) status = { ...l, param: pathParams[0]!.name };
    }
  }
  return upload && status ? { upload, status } : undefined;
}

const json = (res: WireResponse): Record<string, unknown> => {
  try {
    return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export interface UploadAnswer {
  res: WireResponse;
  id?: string;
  requestText: string;
}

export async function uploadFile(
  routes: UploadRoutes,
  accounts: Accounts,
  person: Person,
  file: { name: string; type: string; bytes: Buffer; destination?: string },
): Promise<UploadAnswer> {
  const session = await accounts.session(person);
  const boundary = `----corpus${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  if (file.destination && routes.upload.extraFields.destination)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="destination"\r\n\r\n${file.destination}\r\n`,
      ),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${routes.upload.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const res = await exchange(routes.upload.at, {
    method: 'POST',
    path: `${routes.upload.op.path}?force=true`,
    headers: [
      ['Authorization', `Bearer ${session.token}`],
      ['X-Requested-With', 'XMLHttpRequest'],
      ['Content-Type', `multipart/form-data; boundary=${boundary}`],
    ],
    body: Buffer.concat(parts),
    timeoutMs: 120_000,
  });
  const id = json(res).id;
  return {
    res,
    ...(typeof id === 'string' && res.status < 300 ? { id } : {}),
    requestText: `POST ${routes.upload.op.path} (${file.name}, ${file.type}, ${file.bytes.length} bytes) as ${person}`,
  };
}

export interface FileOutcome {
  status: string;
  error: string | null;
}

export async function fileStatus(
  routes: UploadRoutes,
  accounts: Accounts,
  person: Person,
  id: string,
): Promise<FileOutcome | undefined> {
  const session = await accounts.session(person);
  const res = await exchange(routes.status.at, {
    method: 'GET',
    path: fillPath(routes.status.op.path, { [routes.status.param]: encodeURIComponent(id) }),
    headers: [['Authorization', `Bearer ${session.token}`]],
    timeoutMs: 30_000,
  });
  if (res.status === 401) await accounts.renew(person, session.token);
  if (res.status !== 200) return undefined;
  const body = json(res);
  return { status: String(body.status), error: typeof body.error === 'string' ? body.error : null };
}

/** Polls until every file has ended or the deadline passes; returns each file's last outcome. */
export async function waitForEnds(
  routes: UploadRoutes,
  accounts: Accounts,
  files: ReadonlyArray<{ person: Person; id: string }>,
  deadlineMs: number,
): Promise<Map<string, FileOutcome | undefined>> {
  const last = new Map<string, FileOutcome | undefined>();
  const deadline = Date.now() + deadlineMs;
  let open = [...files];
  while (open.length && Date.now() < deadline) {
    const still: typeof open = [];
    for (let i = 0; i < open.length; i += 8) {
      const batch = open.slice(i, i + 8);
      const outcomes = await Promise.all(batch.map((f) => fileStatus(routes, accounts, f.person, f.id)));
      batch.forEach((f, j) => {
        last.set(f.id, outcomes[j]);
        if (!outcomes[j] || !TERMINAL.has(outcomes[j].status)) still.push(f);
      });
    }
    open = still.filter((f) => last.get(f.id) !== undefined);
    if (open.length) await new Promise((r) => setTimeout(r, 1000));
  }
  return last;
}
