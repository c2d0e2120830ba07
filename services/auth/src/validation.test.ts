import { describe, expect, it } from 'vitest';
import { InputError } from '@kaboodle/platform';
import {
  parseCredentials,
  parseGoogleLogin,
  parsePage,
  parseProfileChange,
  parseRegistration,
  parseSettingsChange,
} from './validation.ts';

const fails = (fn: () => unknown, message: string | RegExp) => {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InputError);
  if (typeof message === 'string') expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
};

describe('auth input validation', () => {
  it('accepts a normal registration, trimming email and name', () => {
    expect(parseRegistration({ email: '  Ada@Example.com ', password: ' p ', name: '  Ada  ' })).toEqual({
      email: 'Ada@Example.com',
      password: ' p ', // passwords are never trimmed
      name: 'Ada',
    });
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [undefined, null, 'x', 42, ['a']])
      fails(() => parseCredentials(body), 'Request body must be a JSON object');
  });

  it('names missing fields and wrong types', () => {
    fails(() => parseCredentials({ password: 'x' }), 'Email is required');
    fails(() => parseCredentials({ email: 'a@b.co' }), 'Password is required');
    fails(() => parseCredentials({ email: 42, password: 'x' }), 'Email must be a string');
    fails(() => parseCredentials({ email: 'a@b.co', password: ['x'] }), 'Password must be a string');
    fails(() => parseRegistration({ email: 'a@b.co', password: 'x' }), 'Name is required');
    fails(
      () => parseRegistration({ email: 'a@b.co', password: 'x', name: { html: 1 } }),
      'Name must be a string',
    );
  });

  it('refuses over-long and malformed emails', () => {
    fails(
      () => parseCredentials({ email: `${'a'.repeat(10_000)}@example.com`, password: 'x' }),
      'Email must be at most 254 characters',
    );
    for (const bad of [
      'plain',
      'a@b',
      '@example.com',
      'a b@example.com',
      'a@exa mple.com',
      'a@@b.co',
      'a@b..co',
      'a\u0000@b.co',
      'a@b.co<script>',
      'a\u0007@b.co',
    ]) {
      fails(() => parseCredentials({ email: bad, password: 'x' }), /Email/);
    }
  });

  it('caps passwords at 1024 characters and requires at least one', () => {
    expect(parseCredentials({ email: 'a@b.co', password: 'x'.repeat(1024) }).password).toHaveLength(1024);
    fails(
      () => parseCredentials({ email: 'a@b.co', password: 'x'.repeat(1025) }),
      'Password must be at most 1024 characters',
    );
    fails(() => parseCredentials({ email: 'a@b.co', password: '' }), 'Password is required');
  });

  it('keeps HTML and SQL in names as plain data, within 100 characters', () => {
    const name = `<script>alert(1)</script>'); DROP TABLE users;--`;
    expect(parseRegistration({ email: 'a@b.co', password: 'x', name }).name).toBe(name);
    fails(
      () => parseRegistration({ email: 'a@b.co', password: 'x', name: 'n'.repeat(101) }),
      'Name must be at most 100 characters',
    );
    fails(() => parseRegistration({ email: 'a@b.co', password: 'x', name: '   ' }), 'Name is required');
    fails(
      () => parseRegistration({ email: 'a@b.co', password: 'x', name: 'a\nb' }),
      'Name must not contain control characters',
    );
  });

  it('Google login needs a credential, in the spec words', () => {
    fails(() => parseGoogleLogin({}), 'No Google credential received');
    fails(() => parseGoogleLogin({ credential: '  ' }), 'No Google credential received');
    fails(() => parseGoogleLogin({ credential: 5 }), 'No Google credential received');
    expect(parseGoogleLogin({ credential: 'abc', clientId: 'id' })).toEqual({
      credential: 'abc',
      clientId: 'id',
    });
  });

  it('profile changes need a name or an email', () => {
    fails(() => parseProfileChange({}), 'Name or email is required');
    expect(parseProfileChange({ name: ' Bo ' })).toEqual({ name: 'Bo' });
  });

  it('settings: instructions ≤ 2000 characters, destination one of auto/document/inventory', () => {
    expect(parseSettingsChange({ default_instructions: 'x', default_destination: 'inventory' })).toEqual({
      defaultInstructions: 'x',
      defaultDestination: 'inventory',
    });
    fails(() => parseSettingsChange({ default_instructions: 'x'.repeat(2001) }), /at most 2000/);
    fails(() => parseSettingsChange({ default_destination: 'mars' }), /one of auto, document, inventory/);
    fails(() => parseSettingsChange({ default_destination: 3 }), /must be a string/);
    fails(() => parseSettingsChange({}), /is required/);
  });

  it('list paging: whole numbers within bounds', () => {
    expect(parsePage({})).toEqual({ limit: 100, offset: 0 });
    expect(parsePage({ limit: '5', offset: '10' })).toEqual({ limit: 5, offset: 10 });
    fails(() => parsePage({ limit: '0' }), /between 1 and 500/);
    fails(() => parsePage({ limit: '-1' }), /whole number/);
    fails(() => parsePage({ limit: ['1', '2'] }), /whole number/);
  });
});
