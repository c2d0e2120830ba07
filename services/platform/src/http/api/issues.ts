// Turns a zod issue into the sentence a 400 answers with. Schema-level messages (the product's own
// texts, e.g. "Email is required") win over these: zod applies a per-parse error map only to issues
// whose schema gave none.
import type * as z from 'zod';

type Issue = z.core.$ZodRawIssue;

function label(issue: Issue, where: 'path' | 'query' | 'body'): string {
  const path = (issue.path ?? []).map(String).join('.');
  if (path) return path;
  return where === 'body' ? 'Request body' : where === 'query' ? 'The query' : 'The path';
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

export function formatIssue(issue: Issue, where: 'path' | 'query' | 'body'): string {
  const name = label(issue, where);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.expected === 'object' && !(issue.path ?? []).length) return `${name} must be a JSON object`;
      if (issue.input === undefined) return `${name} is required`;
      const expected = issue.expected === 'int' ? 'whole number' : String(issue.expected);
      return `${name} must be ${article(expected)}`;
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? `${name} must not be empty` : `${name} must be at least ${min} characters`;
      if (issue.origin === 'array') return `${name} must have at least ${min} item${min === 1 ? '' : 's'}`;
      return `${name} must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `${name} must be at most ${max} characters`;
      if (issue.origin === 'array') return `${name} must have at most ${max} item${max === 1 ? '' : 's'}`;
      return `${name} must be at most ${max}`;
    }
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_format':
      return `${name} must be a valid ${issue.format === 'regex' ? 'value' : issue.format}`;
    case 'unrecognized_keys':
      return `${name} has unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return `${name} must be a multiple of ${String(issue.divisor)}`;
    default:
      return `${name} is not valid`;
  }
}
