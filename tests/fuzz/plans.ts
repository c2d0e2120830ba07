// What a case will do, as plain data drawn by fast-check from the operations of the document: who
// calls (which person, how authenticated, or with which bad token), the values of the path, query and
// body (valid or invalid for their schemas), and the hostile variants of bodies and of HTTP itself.
// Ids are symbolic (own / the other person's / generated, and which one): build.ts resolves them
// against what the campaign has seen when the case runs.
import fc from 'fast-check';
import type { Person } from './accounts.ts';
import { invalidValue, validValue } from './schema-arbitraries.ts';
import { resolve } from './openapi.ts';
import type { FuzzOperation, JsonSchema, OpenApiDocument } from './openapi.ts';

export const BAD_TOKENS = [
  'none',
  'empty-bearer',
  'basic',
  'garbage',
  'forged-signature',
  'swapped-subject',
  'alg-none',
  'hs256-with-public-key',
  'expired',
  'revoked',
  'oversized',
] as const;
export type BadToken = (typeof BAD_TOKENS)[number];

export const CSRF_VARIANTS = [
  'no-x-requested-with',
  'no-csrf-token',
  'wrong-csrf-token',
  'foreign-origin',
] as const;
export type CsrfVariant = (typeof CSRF_VARIANTS)[number];

export type Caller =
  | { kind: 'person'; person: Person; via: 'bearer' | 'cookie' }
  | { kind: 'bad-token'; person: Person; token: BadToken }
  | { kind: 'csrf'; person: Person; variant: CsrfVariant };

export type PathValue =
  | { kind: 'id'; from: 'own' | 'other' | 'generated'; pick: number }
  | { kind: 'value'; value: unknown }
  | { kind: 'raw'; segment: string };

export const FILE_CONTENTS = [
  'text',
  'text-utf16',
  'binary',
  'png',
  'pdf',
  'empty',
  'html',
  'exe',
  'svg-script',
  'zip',
] as const;
export type FileContent = (typeof FILE_CONTENTS)[number];
export interface FilePlan {
  name: string;
  type: string;
  content: FileContent;
  seed: number;
}

export const JSON_HOSTILE = [
  'too-large',
  'deeply-nested-arrays',
  'deeply-nested-objects',
  'duplicate-keys',
  'proto-pollution',
  'charset-utf16',
  'charset-unknown',
  'charset-latin1',
  'gzip',
  'gzip-bomb',
  'brotli-garbage',
  'unknown-encoding',
  'invalid-utf8',
  'lone-surrogate',
  'nul-bytes',
  'text-plain',
  'form-urlencoded',
  'no-content-type',
  'empty-with-type',
  'literal-null',
  'literal-string',
  'literal-array',
  'huge-number',
  'truncated',
  'bom',
  'length-too-short',
  'chunked-bad-size',
] as const;
export type JsonHostile = (typeof JSON_HOSTILE)[number];

export const MULTIPART_HOSTILE = [
  'no-closing-boundary',
  'no-boundary-param',
  'wrong-boundary',
  'empty-boundary',
  'quoted-boundary',
  'overlong-boundary',
  'boundary-never-appears',
  'no-content-disposition',
  'disposition-without-name',
  'rfc2231-filename',
  'bad-percent-filename',
  'two-files',
  'file-in-other-field',
  'file-without-filename',
  'many-fields',
  'huge-field',
  'many-part-headers',
  'nested-multipart',
  'json-as-multipart',
  'only-preamble',
  'cut-mid-file',
  'dropped-mid-file',
  'slow-body',
  'lf-only-newlines',
  'latin1-filename',
  'no-file-part',
] as const;
export type MultipartHostile = (typeof MULTIPART_HOSTILE)[number];

export const PROTOCOL_HOSTILE = [
  'header-flood',
  'huge-header',
  'huge-url',
  'slow-headers',
  'garbage-bytes',
  'bad-method',
  'http10',
  'absolute-form',
  'cl-and-te',
  'negative-length',
  'non-numeric-length',
  'huge-length-then-close',
  'obs-fold',
  'nul-in-header',
  'non-ascii-header',
  'pipelined',
  'duplicate-authorization',
  'duplicate-content-length',
  'expect-continue',
  'bad-percent-path',
] as const;
export type ProtocolHostile = (typeof PROTOCOL_HOSTILE)[number];

export type BodyPlan =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'json-hostile'; variant: JsonHostile; value: unknown }
  | { kind: 'multipart'; fields: Record<string, unknown>; fileField?: string; file?: FilePlan }
  | { kind: 'multipart-hostile'; variant: MultipartHostile; file: FilePlan };

export type CaseKind =
  | 'valid'
  | 'invalid'
  | 'other-person-id'
  | 'bad-token'
  | 'csrf'
  | 'hostile-json'
  | 'hostile-multipart'
  | 'hostile-protocol';

export interface Plan {
  kind: CaseKind;
  /** Index into the campaign's operation list. */
  op: number;
  caller: Caller;
  path: Record<string, PathValue>;
  query: Array<[string, unknown]>;
  body: BodyPlan;
  protocol?: ProtocolHostile;
}

/** A path parameter that names something a person owns (the document calls it …id, or a uuid). */
export function isIdParam(name: string, schema: JsonSchema): boolean {
  return /(^id$|_id$|Id$)/.test(name) || schema.format === 'uuid' || /\bid\b/i.test(schema.description ?? '');
}

const HOSTILE_SEGMENTS = [
  '%',
  '%ZZ',
  '..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%00',
  '%C0%AE',
  '%F0%9F%98%80',
  '%20',
  'a'.repeat(4000),
  '%E2%80%AE',
  'null',
  'undefined',
  '-1',
  '0',
  "'%20OR%201=1--",
  '%3Cscript%3E',
];

export const HOSTILE_FILE_NAMES = [
  '../../etc/passwd.txt',
  '..\\..\\windows\\win.ini.txt',
  'CON.txt',
  '\u202Etxt.exe.txt',
  'nul\u0000byte.txt',
  `${'long'.repeat(1000)}.txt`,
  '.txt',
  '   .txt',
  'emoji-\u{1F4C4}-\u{1F600}.txt',
  'quote"and\'semi;colon.txt',
  '%2e%2e%2fescape.txt',
  '<img src=x onerror=alert(1)>.txt',
  'x.txt\r\nX-Injected: yes',
  'ｆｕｌｌｗｉｄｔｈ.txt',
  'a.TXT',
  'no-extension',
];

const person = fc.constantFrom<Person>('alice', 'bob');
const fileName = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('notes.txt', 'report.pdf', 'photo.png', 'scan.jpg', 'letter.docx', 'old.doc'),
  },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_FILE_NAMES) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
);
const fileType = fc.constantFrom(
  'text/plain',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'application/octet-stream',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/html',
  'application/x-msdownload',
  '',
  'text/plain; charset=utf-16',
);
export const filePlan: fc.Arbitrary<FilePlan> = fc.record({
  name: fileName,
  type: fileType,
  // mostly short text: every accepted upload is processed, and text is the cheap kind
  content: fc.oneof(
    { weight: 12, arbitrary: fc.constant<FileContent>('text') },
    { weight: 4, arbitrary: fc.constantFrom<FileContent>(...FILE_CONTENTS) },
  ),
  seed: fc.nat(),
});

function paramArbs(
  doc: OpenApiDocument,
  op: FuzzOperation,
  mode: 'valid' | 'invalid',
  idFrom: 'own' | 'other',
): fc.Arbitrary<Pick<Plan, 'path' | 'query'>> {
  const path: Record<string, fc.Arbitrary<PathValue>> = {};
  for (const p of op.params.filter((x) => x.in === 'path')) {
    const schema = resolve(doc, p.schema);
    const value = fc.oneof(
      validValue(doc, schema).map((v): PathValue => ({ kind: 'value', value: v })),
      ...(mode === 'invalid'
        ? [
            invalidValue(doc, schema).map((v): PathValue => ({ kind: 'value', value: v })),
            fc.constantFrom(...HOSTILE_SEGMENTS).map((s): PathValue => ({ kind: 'raw', segment: s })),
          ]
        : []),
    );
    path[p.name] = isIdParam(p.name, schema)
      ? fc.oneof(
          {
            weight: mode === 'valid' ? 6 : 1,
            arbitrary: fc.nat().map((pick): PathValue => ({ kind: 'id', from: idFrom, pick })),
          },
          { weight: 2, arbitrary: fc.uuid().map((u): PathValue => ({ kind: 'value', value: u })) },
          { weight: 2, arbitrary: value },
        )
      : value;
  }
  const queryParams = op.params.filter((x) => x.in === 'query');
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.option(
          (mode === 'valid'
            ? validValue(doc, p.schema)
            : fc.oneof(validValue(doc, p.schema), invalidValue(doc, p.schema))
          ).map((v): [string, unknown] => [p.name, v]),
          { freq: p.required ? 1000 : 2, nil: undefined },
        ),
      ),
      mode === 'invalid'
        ? fc.option(fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 })), {
            freq: 3,
            nil: undefined,
          })
        : fc.constant(undefined),
    )
    .map((entries) => entries.filter((e): e is [string, unknown] => e !== undefined));
  return fc.record({ path: fc.record(path), query });
}

function bodyArb(doc: OpenApiDocument, op: FuzzOperation, mode: 'valid' | 'invalid'): fc.Arbitrary<BodyPlan> {
  const body = op.body;
  if (!body) return fc.constant({ kind: 'none' });
  const options: fc.Arbitrary<BodyPlan>[] = [];
  if (body.json) {
    const gen = mode === 'valid' ? validValue(doc, body.json) : invalidValue(doc, body.json);
    options.push(gen.map((value): BodyPlan => ({ kind: 'json', value })));
  }
  if (body.multipart) {
    const schema = resolve(doc, body.multipart);
    const props = schema.properties ?? {};
    const fileField = Object.entries(props).find(([, s]) => resolve(doc, s).format === 'binary')?.[0];
    const others = Object.fromEntries(Object.entries(props).filter(([k]) => k !== fileField));
    const fieldsSchema: JsonSchema = {
      type: 'object',
      properties: others,
      required: (schema.required ?? []).filter((k) => k !== fileField),
    };
    const fields = mode === 'valid' ? validValue(doc, fieldsSchema) : invalidValue(doc, fieldsSchema);
    options.push(
      fc
        .record({ fields, file: fc.option(filePlan, { freq: mode === 'valid' ? 1000 : 6, nil: undefined }) })
        .map(({ fields: f, file }): BodyPlan => ({
          kind: 'multipart',
          fields: (f ?? {}) as Record<string, unknown>,
          ...(fileField ? { fileField } : {}),
          ...(fileField && file ? { file } : {}),
        })),
    );
  }
  if (!body.required) options.push(fc.constant<BodyPlan>({ kind: 'none' }));
  return options.length ? fc.oneof(...options) : fc.constant<BodyPlan>({ kind: 'none' });
}

const signedInCaller = (p: Person): fc.Arbitrary<Caller> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant<Caller>({ kind: 'person', person: p, via: 'bearer' }) },
    { weight: 1, arbitrary: fc.constant<Caller>({ kind: 'person', person: p, via: 'cookie' }) },
  );

/** Every kind of case for every operation, weighted so the cheap kinds make up most of a run. */
export function planArbitrary(doc: OpenApiDocument, ops: readonly FuzzOperation[]): fc.Arbitrary<Plan> {
  const indexed = ops.map((op, i) => ({ op, i }));
  const pick = (filter: (op: FuzzOperation) => boolean) => indexed.filter(({ op }) => filter(op));
  const kinds: Array<{ weight: number; arbitrary: fc.Arbitrary<Plan> }> = [];
  const add = (
    weight: number,
    pool: typeof indexed,
    make: (op: FuzzOperation, i: number) => fc.Arbitrary<Plan>,
  ) => {
    if (pool.length)
      kinds.push({ weight, arbitrary: fc.constantFrom(...pool).chain(({ op, i }) => make(op, i)) });
  };

  for (const mode of ['valid', 'invalid'] as const) {
    add(30, indexed, (op, i) =>
      fc
        .record({ p: person, params: paramArbs(doc, op, mode, 'own'), body: bodyArb(doc, op, mode) })
        .chain(({ p, params, body }) =>
          signedInCaller(p).map((caller): Plan => ({ kind: mode, op: i, caller, ...params, body })),
        ),
    );
  }
  add(
    8,
    pick((op) => op.signedIn && op.params.some((p) => p.in === 'path' && isIdParam(p.name, p.schema))),
    (op, i) =>
      fc
        .record({ p: person, params: paramArbs(doc, op, 'valid', 'other'), body: bodyArb(doc, op, 'valid') })
        .map(({ p, params, body }): Plan => {
          // every id the path takes is the other person's
          const path = Object.fromEntries(
            Object.entries(params.path).map(([k, v]) => [
              k,
              isIdParam(k, op.params.find((x) => x.name === k)!.schema)
                ? ({ kind: 'id', from: 'other', pick: v.kind === 'id' ? v.pick : 0 } as PathValue)
                : v,
            ]),
          );
          return {
            kind: 'other-person-id',
            op: i,
            caller: { kind: 'person', person: p, via: 'bearer' },
            path,
            query: params.query,
            body,
          };
        }),
  );
  add(
    8,
    pick((op) => op.signedIn),
    (op, i) =>
      fc
        .record({
          p: person,
          token: fc.constantFrom(...BAD_TOKENS),
          params: paramArbs(doc, op, 'valid', 'own'),
          body: bodyArb(doc, op, 'valid'),
        })
        .map(({ p, token, params, body }): Plan => ({
          kind: 'bad-token',
          op: i,
          caller: { kind: 'bad-token', person: p, token },
          ...params,
          body,
        })),
  );
  add(
    5,
    pick((op) => op.signedIn && op.unsafe),
    (op, i) =>
      fc
        .record({
          p: person,
          variant: fc.constantFrom(...CSRF_VARIANTS),
          params: paramArbs(doc, op, 'valid', 'own'),
          body: bodyArb(doc, op, 'valid'),
        })
        .map(({ p, variant, params, body }): Plan => ({
          kind: 'csrf',
          op: i,
          caller: { kind: 'csrf', person: p, variant },
          ...params,
          body,
        })),
  );
  add(
    8,
    pick((op) => op.body?.json !== undefined),
    (op, i) =>
      fc
        .record({
          p: person,
          variant: fc.constantFrom(...JSON_HOSTILE),
          value: validValue(doc, op.body!.json!),
          params: paramArbs(doc, op, 'valid', 'own'),
        })
        .map(({ p, variant, value, params }): Plan => ({
          kind: 'hostile-json',
          op: i,
          caller: { kind: 'person', person: p, via: 'bearer' },
          ...params,
          body: { kind: 'json-hostile', variant, value },
        })),
  );
  add(
    8,
    pick((op) => op.body?.multipart !== undefined),
    (op, i) =>
      fc
        .record({
          p: person,
          variant: fc.constantFrom(...MULTIPART_HOSTILE),
          file: filePlan,
          params: paramArbs(doc, op, 'valid', 'own'),
        })
        .map(({ p, variant, file, params }): Plan => ({
          kind: 'hostile-multipart',
          op: i,
          caller: { kind: 'person', person: p, via: 'bearer' },
          ...params,
          body: { kind: 'multipart-hostile', variant, file },
        })),
  );
  add(4, indexed, (op, i) =>
    fc
      .record({
        p: person,
        protocol: fc.constantFrom(...PROTOCOL_HOSTILE),
        params: paramArbs(doc, op, 'valid', 'own'),
        body: bodyArb(doc, op, 'valid'),
      })
      .map(({ p, protocol, params, body }): Plan => ({
        kind: 'hostile-protocol',
        op: i,
        caller: { kind: 'person', person: p, via: 'bearer' },
        ...params,
        body,
        protocol,
      })),
  );
  return fc.oneof(...kinds);
}
