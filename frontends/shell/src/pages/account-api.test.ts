// The account pages trust only response shapes they understand; these tests pin that parsing.
import { describe, expect, it } from 'vitest';
import { DECO_ICON_NAMES } from '@kaboodle/kit';
import { errorText, formatWhen, parseAdminUsers, parseSettings, ResponseShapeError } from './account-api.ts';
import { CAPABILITIES } from './landing-capabilities.ts';

describe('parseSettings', () => {
  it('reads the auth contract body', () => {
    expect(parseSettings({ default_instructions: 'Tag parties', default_destination: 'inventory' })).toEqual({
      default_instructions: 'Tag parties',
      default_destination: 'inventory',
    });
  });

  it('also accepts the settings wrapped in {settings}', () => {
    expect(
      parseSettings({ settings: { default_instructions: 'x', default_destination: 'document' } }),
    ).toEqual({
      default_instructions: 'x',
      default_destination: 'document',
    });
  });

  it('falls back to Auto and empty instructions for unknown or missing values', () => {
    expect(parseSettings({ default_destination: 'elsewhere' })).toEqual({
      default_instructions: '',
      default_destination: 'auto',
    });
  });

  it('rejects a body that is not an object', () => {
    expect(() => parseSettings('nope')).toThrow(ResponseShapeError);
    expect(() => parseSettings(null)).toThrow(/Invalid API response/);
  });
});

describe('parseAdminUsers', () => {
  it('maps the users list and keeps missing sign-ins as null', () => {
    const rows = parseAdminUsers({
      users: [
        {
          id: 7,
          email: 'a@x.test',
          name: 'A',
          role: 'admin',
          created_at: '2026-11-01T00:00:00Z',
          last_login_at: null,
        },
        { id: 'u2', email: 'b@x.test', name: 'B', role: 'owner', created_at: '2026-11-02T00:00:00Z' },
      ],
    });
    expect(rows).toEqual([
      {
        id: '7',
        email: 'a@x.test',
        name: 'A',
        role: 'admin',
        created_at: '2026-11-01T00:00:00Z',
        last_login_at: null,
      },
      {
        id: 'u2',
        email: 'b@x.test',
        name: 'B',
        role: 'user',
        created_at: '2026-11-02T00:00:00Z',
        last_login_at: null,
      },
    ]);
  });

  it('refuses a body without a users array', () => {
    expect(() => parseAdminUsers({ users: 'all of them' })).toThrow(ResponseShapeError);
    expect(() => parseAdminUsers([])).toThrow(ResponseShapeError);
  });
});

describe('formatting helpers', () => {
  it('shows "Never" for a missing or unparsable date and a readable date otherwise', () => {
    expect(formatWhen(null)).toBe('Never');
    expect(formatWhen('not a date')).toBe('Never');
    expect(formatWhen('2026-11-21T12:00:00Z')).toMatch(/2026/);
  });

  it('uses the error message when there is one, else the fallback', () => {
    expect(errorText(new Error('Current password is incorrect'), 'x')).toBe('Current password is incorrect');
    expect(errorText('boom', 'Saving failed.')).toBe('Saving failed.');
    expect(errorText(new Error('  '), 'Saving failed.')).toBe('Saving failed.');
  });
});

describe('landing capabilities', () => {
  it('has the four panels of the spec, in order, with unique ids and drawable icons', () => {
    expect(CAPABILITIES.map((c) => c.title)).toEqual([
      'Document Analysis',
      'Inventory Cataloguing',
      'Vector-Based Search',
      'Combining Insights',
    ]);
    expect(new Set(CAPABILITIES.map((c) => c.id)).size).toBe(4);
    for (const c of CAPABILITIES) {
      expect(c.description.length).toBeGreaterThan(40);
      expect(c.details.length).toBeGreaterThanOrEqual(3);
      for (const icon of [c.icon, ...c.details.map((d) => d.icon)]) expect(DECO_ICON_NAMES).toContain(icon);
      for (const d of c.details) expect(d.description.length).toBeGreaterThan(30);
    }
  });
});
