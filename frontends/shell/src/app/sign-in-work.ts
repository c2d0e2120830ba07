// How far the work after a sign-in is, for the work-paced loading screen: the session (20), the
// first data load's steps (25 → 40, 75 → 60, done → 80) and the dashboard's code (100). And who
// skips the screen: anyone who asks for reduced motion, and anyone who has seen it here before.
import type { DataLoadState } from '../session/session-context.tsx';
import { DATA_LOAD } from '../session/user-data.service.ts';

export const INTRO_SEEN_KEY = 'kaboodle:intro-seen';

export function signInWork(signedIn: boolean, dataLoad: DataLoadState | null, screenReady: boolean): number {
  if (!signedIn) return 0;
  // a failed data load is over too: the banner says what went wrong
  const loaded =
    dataLoad !== null &&
    (dataLoad.progress >= DATA_LOAD.done.progress || dataLoad.message === DATA_LOAD.failedMessage);
  if (loaded) return screenReady ? 100 : 80;
  if (dataLoad && dataLoad.progress >= DATA_LOAD.syncing.progress) return 60;
  if (dataLoad && dataLoad.progress >= DATA_LOAD.loading.progress) return 40;
  return 20;
}

export function skipsIntro(): boolean {
  try {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return true;
    return localStorage.getItem(INTRO_SEEN_KEY) !== null;
  } catch {
    return false;
  }
}

export function rememberIntroSeen(): void {
  try {
    localStorage.setItem(INTRO_SEEN_KEY, new Date().toISOString());
  } catch {
    // remembering is a nicety: the screen shows again next time
  }
}
