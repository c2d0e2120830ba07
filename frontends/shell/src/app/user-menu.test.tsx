import { describe, expect, it } from 'vitest';
import { buttonLabel } from './user-menu.tsx';

describe('user menu label (docs/product.md#app-shell)', () => {
  it('shows the name, else the email, else "User"', () => {
    expect(buttonLabel({ name: 'Ada', email: 'ada@example.com' })).toBe('Ada');
    expect(buttonLabel({ name: '  ', email: 'ada@example.com' })).toBe('ada@example.com');
    expect(buttonLabel({ name: '', email: '' })).toBe('User');
    expect(buttonLabel(null)).toBe('User');
  });
});
