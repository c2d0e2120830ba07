import { describe, expect, it } from 'vitest';
import { DATA_LOAD } from '../session/user-data.service.ts';
import { signInWork } from './sign-in-work.ts';

describe('work after a sign-in', () => {
  it('follows the session, the data load steps and the first screen', () => {
    expect(signInWork(false, null, false)).toBe(0);
    expect(signInWork(true, null, false)).toBe(20);
    expect(signInWork(true, DATA_LOAD.loading, false)).toBe(40);
    expect(signInWork(true, DATA_LOAD.syncing, false)).toBe(60);
    expect(signInWork(true, DATA_LOAD.done, false)).toBe(80);
    expect(signInWork(true, DATA_LOAD.done, true)).toBe(100);
  });

  it('counts a failed data load as over (the banner says why)', () => {
    expect(signInWork(true, { progress: 0, message: DATA_LOAD.failedMessage }, true)).toBe(100);
  });
});
