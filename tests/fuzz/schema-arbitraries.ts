// fast-check arbitraries from the JSON Schemas of the served OpenAPI document: values the schema
// accepts (to get past the edge and into the handlers) and values it should refuse (wrong types,
// out-of-bounds numbers and lengths, unknown enum members, bad formats, missing or extra fields,
// null where none is allowed). "Should" because a schema in the document is a summary of the zod
// one (transforms, refinements): the fuzzer asserts on how the server answers, never on which.
import fc from 'fast-check';
import { resolve } from './openapi.ts';
import type { JsonSchema, OpenApiDocument } from './openapi.ts';

/** Strings are kept short unless a bound asks for length: long ones come from the invalid side. */
const SHORT = 24;
/** Nested objects and arrays stop here (recursive schemas would never end). */
const MAX_DEPTH = 4;

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

function nullable(s: JsonSchema): boolean {
  if (s.nullable) return true;
  if (typesOf(s).includes('null')) return true;
  if (s.enum?.includes(null)) return true;
  return (s.anyOf ?? s.oneOf ?? []).some(
    (b) => b.type === 'null' || (Array.isArray(b.type) && b.type.includes('null')),
  );
}

/** allOf branches merged into one schema (properties and required lists are unioned). */
function merged(doc: OpenApiDocument, s: JsonSchema): JsonSchema {
  if (!s.allOf?.length) return s;
  const { allOf, ...own } = s;
  let out: JsonSchema = { ...own };
  for (const part of allOf.map((p) => merged(doc, resolve(doc, p)))) {
    out = {
      ...part,
      ...out,
      properties: { ...(part.properties ?? {}), ...(out.properties ?? {}) },
      required: [...new Set([...(part.required ?? []), ...(out.required ?? [])])],
    };
  }
  return out;
}

const inclusiveMin = (s: JsonSchema): number | undefined =>
  typeof s.exclusiveMinimum === 'number'
    ? s.exclusiveMinimum
    : s.minimum !== undefined && s.exclusiveMinimum === true
      ? s.minimum
      : s.minimum;
const inclusiveMax = (s: JsonSchema): number | undefined =>
  typeof s.exclusiveMaximum === 'number'
    ? s.exclusiveMaximum
    : s.maximum !== undefined && s.exclusiveMaximum === true
      ? s.maximum
      : s.maximum;
const excludesMin = (s: JsonSchema) => typeof s.exclusiveMinimum === 'number' || s.exclusiveMinimum === true;
const excludesMax = (s: JsonSchema) => typeof s.exclusiveMaximum === 'number' || s.exclusiveMaximum === true;

/** Text as people and attackers type it: ASCII, any Unicode (astral planes, combining marks), control characters. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }) },
  );
}

function validString(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, SHORT);
  // Formats and patterns are held only to the declared bounds (a UUID pattern makes 36 characters,
  // more than SHORT), and a value that misses them is clipped, never retried: fast-check's filter
  // retries forever, and one filter that could not pass once hung a CI run for 90 minutes.
  const declaredMax = s.maxLength ?? Number.POSITIVE_INFINITY;
  const fit = (v: string) =>
    v.length >= min && v.length <= declaredMax ? v : v.slice(0, declaredMax).padEnd(min, '0');
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().map(fit);
    case 'uri':
    case 'url':
      return fc.webUrl().map(fit);
    case 'binary':
      return fc.string({ maxLength: 64 });
  }
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).map(fit);
    } catch {
      // a pattern JavaScript cannot compile: fall through to plain text
    }
  }
  // Mostly short values, sometimes exactly at the bounds (where off-by-ones live).
  return fc.oneof(
    { weight: 6, arbitrary: text(min, Math.min(max, Math.max(min, SHORT))) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(max)) },
    { weight: 1, arbitrary: fc.constant('y'.repeat(min)) },
  );
}

function validNumber(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min = inclusiveMin(s) ?? -1_000_000;
  let max = inclusiveMax(s) ?? 1_000_000;
  if (integer) {
    min = excludesMin(s) ? Math.floor(min) + 1 : Math.ceil(min);
    max = excludesMax(s) ? Math.ceil(max) - 1 : Math.floor(max);
    return fc.integer({
      min: Math.max(min, Number.MIN_SAFE_INTEGER),
      max: Math.min(max, Number.MAX_SAFE_INTEGER),
    });
  }
  return fc.double({
    min,
    max,
    minExcluded: excludesMin(s),
    maxExcluded: excludesMax(s),
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/** Values the schema accepts. */
export function validValue(doc: OpenApiDocument, schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const s = merged(doc, resolve(doc, schema));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => validValue(doc, b, depth)));
  const types = typesOf(s);
  if (types.length > 1) return fc.oneof(...types.map((t) => validValue(doc, { ...s, type: t }, depth)));
  const base = ((): fc.Arbitrary<unknown> => {
    switch (types[0] ?? (s.properties ? 'object' : s.items ? 'array' : undefined)) {
      case 'string':
        return validString(s);
      case 'integer':
        return validNumber(s, true);
      case 'number':
        return validNumber(s, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const item = depth >= MAX_DEPTH ? fc.constant(null) : validValue(doc, s.items ?? {}, depth + 1);
        const minLength = s.minItems ?? 0;
        return fc.array(item, { minLength, maxLength: Math.min(s.maxItems ?? 4, minLength + 4) });
      }
      case 'object': {
        const props = s.properties ?? {};
        const required = new Set(s.required ?? []);
        if (depth >= MAX_DEPTH) return fc.constant({});
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, v] of Object.entries(props)) model[k] = validValue(doc, v, depth + 1);
        return fc.record(model, { requiredKeys: [...required].filter((k) => k in props) });
      }
      default:
        // {} (anything): JSON of every kind, shallow
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return s.nullable ? fc.option(base, { nil: null, freq: 5 }) : base;
}

/** A value of another JSON type than every type the schema allows. */
function wrongType(s: JsonSchema): fc.Arbitrary<unknown> {
  const allowed = new Set(typesOf(s));
  if (allowed.has('integer')) allowed.add('number');
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.constantFrom('', 'not-a-number', '1e999', 'NaN', 'true', '{}', '[]', 'null')],
    ['number', fc.constantFrom(0, -1, 1.5, 1e308, -0, 2 ** 53 + 1)],
    ['boolean', fc.boolean()],
    [
      'object',
      fc.constantFrom({}, { __proto__: { polluted: true } }, { constructor: { prototype: { x: 1 } } }),
    ],
    ['array', fc.constantFrom([], [1, 2, 3], [[[]]], [null])],
    ['null', fc.constant(null)],
  ];
  const others = candidates.filter(([t]) => !allowed.has(t)).map(([, a]) => a);
  return others.length ? fc.oneof(...others) : fc.constant(undefined);
}

/** Values the schema should refuse: one rule broken, at one place. */
export function invalidValue(doc: OpenApiDocument, schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const s = merged(doc, resolve(doc, schema));
  const ways: fc.Arbitrary<unknown>[] = [wrongType(s)];
  if (!nullable(s)) ways.push(fc.constant(null));
  if (s.enum?.length) {
    const members = s.enum.map(String);
    ways.push(
      fc.string({ minLength: 1, maxLength: 12 }).filter((v) => !members.includes(v)),
      fc.constantFrom(...members.map((m) => m.toUpperCase() + ' '), ...members.map((m) => `${m}\u0000`)),
    );
  }
  const types = typesOf(s);
  if (types.includes('string')) {
    if (s.maxLength !== undefined) {
      const max = s.maxLength;
      ways.push(fc.integer({ min: max + 1, max: max + 64 }).map((n) => 'z'.repeat(n)));
    } else {
      ways.push(fc.constantFrom('a'.repeat(10_000), '\u{1F600}'.repeat(3000)));
    }
    if (s.minLength) ways.push(fc.constant('q'.repeat(s.minLength - 1)));
    if (s.format || s.pattern)
      ways.push(
        fc.constantFrom(
          'not-valid',
          '2024-13-45T25:61:61Z',
          'user@',
          'http://',
          '../../etc/passwd',
          '\u202Eexe.txt',
        ),
      );
  }
  if (types.includes('integer') || types.includes('number')) {
    const min = inclusiveMin(s);
    const max = inclusiveMax(s);
    if (min !== undefined) ways.push(fc.constantFrom(min - 1, min - 0.5, -1e308));
    if (max !== undefined) ways.push(fc.constantFrom(max + 1, max + 0.5, 1e308));
    if (types.includes('integer') && !types.includes('number')) ways.push(fc.constantFrom(0.5, 1.25, -3.75));
  }
  if (types.includes('array') || s.items) {
    if (s.maxItems !== undefined) ways.push(fc.constant(Array.from({ length: s.maxItems + 1 }, () => null)));
    if (s.minItems) ways.push(fc.constant([]));
    if (s.items && depth < MAX_DEPTH)
      ways.push(fc.array(invalidValue(doc, s.items, depth + 1), { minLength: 1, maxLength: 3 }));
  }
  const props = s.properties;
  if (props && depth < MAX_DEPTH) {
    const names = Object.keys(props);
    const valid = validValue(doc, s, depth) as fc.Arbitrary<Record<string, unknown>>;
    for (const name of s.required ?? []) {
      ways.push(
        valid.map((v) => {
          const { [name]: _gone, ...rest } = v;
          return rest;
        }),
      );
    }
    if (names.length) {
      ways.push(
        fc
          .tuple(valid, fc.constantFrom(...names))
          .chain(([v, name]) =>
            invalidValue(doc, props[name]!, depth + 1).map((bad) => ({ ...v, [name]: bad })),
          ),
      );
    }
    ways.push(
      valid.map((v) => ({ ...v, unexpectedField: 'surprise' })),
      valid.map(
        (v) =>
          JSON.parse(
            `{"__proto__":{"isAdmin":true},${JSON.stringify(v).slice(1)}`.replace(',}', '}'),
          ) as unknown,
      ),
    );
  }
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length && depth < MAX_DEPTH)
    ways.push(...branches.map((b) => invalidValue(doc, b, depth + 1)));
  return fc.oneof(...ways);
}
