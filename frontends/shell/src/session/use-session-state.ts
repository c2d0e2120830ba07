// The session's moving parts (docs/product.md#states), each a hook: whether a session request is in
// flight, the delayed startup check, and the data load once per sign-in.
import { useCallback, useEffect, useRef, useState } from 'react';
import { clearAuth, saveAuth, type ApiClient, type SessionUser } from '@kaboodle/kit';
import type { SessionService } from './session.service.ts';
import { loadUserData, type UserData } from './user-data.service.ts';

export interface DataLoadState {
  progress: number;
  message: string;
}

/** loading is true while any session request is in flight, the startup check included. */
export function useInFlight() {
  const [loading, setLoading] = useState(true);
  const count = useRef(0);
  const enter = useCallback(() => {
    count.current++;
    setLoading(true);
  }, []);
  const leave = useCallback(() => {
    count.current--;
    if (count.current === 0) setLoading(false);
  }, []);
  const track = useCallback(
    async <T>(work: () => Promise<T>): Promise<T> => {
      enter();
      try {
        return await work();
      } finally {
        leave();
      }
    },
    [enter, leave],
  );
  return { loading, enter, leave, track };
}

/** Startup check, ~100 ms after start; silent when signed out. `checked` turns true once it answered. */
export function useStartupCheck(
  service: SessionService,
  delayMs: number,
  setUser: (user: SessionUser) => void,
  inFlight: { enter(): void; leave(): void },
): boolean {
  const [checked, setChecked] = useState(false);
  const { enter, leave } = inFlight;
  useEffect(() => {
    let cancelled = false;
    // Counted in flight once, and uncounted exactly once: when the check answers, or when the
    // effect is torn down first (unmount, or React StrictMode's mount-unmount-mount), so loading
    // never stays true for a check nobody waits for any more.
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      leave();
    };
    enter();
    const timer = setTimeout(() => {
      void service
        .checkSession()
        .then((found) => {
          if (cancelled) return;
          if (found) {
            saveAuth(found);
            setUser(found);
          } else {
            clearAuth();
          }
        })
        .finally(() => {
          if (cancelled) return;
          setChecked(true);
          done();
        });
    }, delayMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      done();
    };
  }, [service, delayMs, setUser, enter, leave]);
  return checked;
}

/** The data load after sign-in (docs/product.md#states), once per signed-in user. */
export function useUserDataLoad(
  user: SessionUser | null,
  api: ApiClient,
  showBanner: (text: string) => void,
) {
  const [dataLoad, setDataLoad] = useState<DataLoadState | null>(null);
  const [userData, setUserData] = useState<UserData | null>(null);
  const loadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!user) {
      loadedFor.current = null;
      return;
    }
    if (loadedFor.current === user.id) return;
    loadedFor.current = user.id;
    let cancelled = false;
    void loadUserData(api, (progress, message) => {
      if (!cancelled) setDataLoad({ progress, message });
    }).then((result) => {
      if (cancelled) return;
      if (result.ok) setUserData(result.data);
      else showBanner(result.banner);
    });
    return () => {
      cancelled = true;
    };
  }, [user, api, showBanner]);
  const reset = useCallback(() => {
    setUserData(null);
    setDataLoad(null);
  }, []);
  return { dataLoad, userData, reset };
}
