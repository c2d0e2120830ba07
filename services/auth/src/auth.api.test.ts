// The auth operations' input schemas give the messages the hand-written parser gave (the web client
// and people read them), and the new-password rule refuses short and common passwords.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, InputError, validateInput } from '@kaboodle/platform';
import {
  authOperations,
  changePassword,
  googleLogin,
  listUsers,
  login,
  register,
  resetPassword,
  rotateSigningKey,
  updateProfile,
  updateSettings,
} from './auth.api.ts';
import type { OperationSpec } from '@kaboodle/platform';

const body = (op: OperationSpec, value: unknown) => validateInput(op.body!.json!, value, 'body');
const query = (op: OperationSpec, value: unknown) => validateInput(op.query!, value, 'query');

function fails(fn: () => unknown, message: string | RegExp) {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InputError);
  if (typeof message === 'string') expect((err as Error).message).toBe(message);
  else expect((err as Error).message).toMatch(message);
}

describe('auth operation inputs', () => {
  it('accepts a normal registration, trimming email and name but never the password', () => {
    expect(
      body(register, { email: '  Ada@Example.com ', password: ' analytical ', name: '  Ada  ' }),
    ).toEqual({
      email: 'Ada@Example.com',
      password: ' analytical ',
      name: 'Ada',
    });
  });

  it('refuses a body that is not a JSON object', () => {
    for (const value of [null, 'x', 42, ['a']])
      fails(() => body(login, value), 'Request body must be a JSON object');
  });

  it('names missing fields and wrong types, the first field first', () => {
    fails(() => body(login, {}), 'Email is required');
    fails(() => body(login, { password: 'x' }), 'Email is required');
    fails(() => body(login, { email: 'a@b.co' }), 'Password is required');
    fails(() => body(login, { email: null, password: 'x' }), 'Email is required');
    fails(() => body(login, { email: 42, password: 'x' }), 'Email must be a string');
    fails(() => body(login, { email: 'a@b.co', password: ['x'] }), 'Password must be a string');
    fails(() => body(register, { email: 'a@b.co', password: 'long enough pw' }), 'Name is required');
    fails(
      () => body(register, { email: 'a@b.co', password: 'long enough pw', name: { html: 1 } }),
      'Name must be a string',
    );
  });

  it('refuses over-long and malformed emails', () => {
    fails(
      () => body(login, { email: `${'a'.repeat(10_000)}@example.com`, password: 'x' }),
      'Email must be at most 254 characters',
    );
    fails(() => body(login, { email: '   ', password: 'x' }), 'Email is required');
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
      fails(() => body(login, { email: bad, password: 'x' }), 'Email must be a valid email address');
    }
  });

  it('signing in takes any password up to 1024 characters (accounts made under the old rule still sign in)', () => {
    expect(body(login, { email: 'a@b.co', password: 'x' })).toEqual({ email: 'a@b.co', password: 'x' });
    expect(
      (body(login, { email: 'a@b.co', password: 'x'.repeat(1024) }) as { password: string }).password,
    ).toHaveLength(1024);
    fails(
      () => body(login, { email: 'a@b.co', password: 'x'.repeat(1025) }),
      'Password must be at most 1024 characters',
    );
    fails(() => body(login, { email: 'a@b.co', password: '' }), 'Password is required');
  });

  it('a new password needs 8 characters and must not be a common one (register, change, reset)', () => {
    const reg = (password: unknown) => () => body(register, { email: 'a@b.co', password, name: 'A' });
    fails(reg('1'), 'Password must be at least 8 characters');
    fails(reg('1234567'), 'Password must be at least 8 characters');
    fails(reg(''), 'Password is required');
    fails(
      reg('password'),
      'Password is one of the most common passwords: choose one that is harder to guess',
    );
    fails(reg('PassWord1'), /one of the most common passwords/);
    fails(reg('12345678'), /one of the most common passwords/);
    fails(reg('x'.repeat(1025)), 'Password must be at most 1024 characters');
    expect(reg('Correct-Horse-Battery')()).toMatchObject({ password: 'Correct-Horse-Battery' });
    fails(
      () => body(changePassword, { current_password: 'x', new_password: 'qwertyuiop' }),
      'New password is one of the most common passwords: choose one that is harder to guess',
    );
    fails(
      () => body(resetPassword, { token: 't', new_password: 'short' }),
      'New password must be at least 8 characters',
    );
    // the current password is only checked, never judged
    expect(body(changePassword, { current_password: '1', new_password: 'Correct-Horse-Battery' })).toEqual({
      current_password: '1',
      new_password: 'Correct-Horse-Battery',
    });
  });

  it('keeps HTML and SQL in names as plain data, within 100 characters', () => {
    const name = `<script>alert(1)</script>'); DROP TABLE users;--`;
    const reg = (n: unknown) => () =>
      body(register, { email: 'a@b.co', password: 'long enough pw', name: n });
    expect(reg(name)()).toMatchObject({ name });
    fails(reg('n'.repeat(101)), 'Name must be at most 100 characters');
    fails(reg('   '), 'Name is required');
    fails(reg('a\nb'), 'Name must not contain control characters');
  });

  it('Google login needs a credential, in the spec words', () => {
    fails(() => body(googleLogin, {}), 'No Google credential received');
    fails(() => body(googleLogin, { credential: '  ' }), 'No Google credential received');
    fails(() => body(googleLogin, { credential: 5 }), 'No Google credential received');
    fails(() => body(googleLogin, { credential: 'x'.repeat(16_385) }), 'Google credential is too long');
    expect(body(googleLogin, { credential: ' abc ', clientId: 'id' })).toEqual({
      credential: 'abc',
      clientId: 'id',
    });
    expect(body(googleLogin, { credential: 'abc', clientId: null })).toEqual({ credential: 'abc' });
  });

  it('profile changes need a name or an email; null means absent', () => {
    fails(() => body(updateProfile, {}), 'Name or email is required');
    fails(() => body(updateProfile, { name: null }), 'Name or email is required');
    fails(() => body(updateProfile, { name: 7 }), 'Name must be a string');
    expect(body(updateProfile, { name: ' Bo ' })).toEqual({ name: 'Bo' });
  });

  it('settings: instructions ≤ 2000 characters, destination one of auto/document/inventory', () => {
    expect(body(updateSettings, { default_instructions: 'x', default_destination: 'inventory' })).toEqual({
      default_instructions: 'x',
      default_destination: 'inventory',
    });
    fails(
      () => body(updateSettings, { default_instructions: 'x'.repeat(2001) }),
      'default_instructions must be at most 2000 characters',
    );
    fails(
      () => body(updateSettings, { default_destination: 'mars' }),
      'default_destination must be one of auto, document, inventory',
    );
    fails(() => body(updateSettings, { default_destination: 3 }), 'default_destination must be a string');
    fails(() => body(updateSettings, {}), 'default_instructions or default_destination is required');
  });

  it('list paging: whole numbers within bounds', () => {
    expect(query(listUsers, {})).toEqual({ limit: 100, offset: 0 });
    expect(query(listUsers, { limit: '5', offset: '10' })).toEqual({ limit: 5, offset: 10 });
    fails(() => query(listUsers, { limit: '0' }), 'limit must be between 1 and 500');
    fails(() => query(listUsers, { limit: '-1' }), 'limit must be a whole number');
    fails(() => query(listUsers, { limit: ['1', '2'] }), 'limit must be a whole number');
  });

  it('key rotation: immediate is true or false', () => {
    expect(body(rotateSigningKey, {})).toEqual({});
    expect(body(rotateSigningKey, { immediate: true })).toEqual({ immediate: true });
    fails(() => body(rotateSigningKey, { immediate: 'yes' }), 'immediate must be true or false');
  });

  it('every operation lives under /api/auth and the document is valid OpenAPI 3.1', async () => {
    expect(authOperations.every((op) => op.path.startsWith('/api/auth/'))).toBe(true);
    const doc = buildOpenApiDocument(authOperations, { title: 'auth', version: '1' });
    expect(Object.keys(doc.paths ?? {})).toHaveLength(new Set(authOperations.map((o) => o.path)).size);
    expect(doc.components?.schemas).toHaveProperty('AuthUser');
    const result = await new Validator().validate(
      structuredClone(doc) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
