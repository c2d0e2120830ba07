// The session life in React (docs/product.md#states): the delayed startup check, sign-in calls, logout that
// always clears, the data load after sign-in, the 5 s error banner and the client's `auth:error` event.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  AUTH_ERROR_EVENT,
  api as kitApi,
  clearAuth,
  saveAuth,
  type ApiClient,
  type SessionUser,
} from '@kaboodle/kit';
import { createSessionService, type AuthOutcome, type SessionService } from './session.service.ts';
import { loadUserData, type UserData } from './user-data.service.ts';

export const SESSION_CHECK_DELAY_MS = 100;
export const BANNER_CLEAR_MS = 5000;

export interface DataLoadState {
  progress: number;
  message: string;
}

export interface SessionContextValue {
  user: SessionUser | null;
  loading: boolean;
  error: string | null;
  isAuthenticated: boolean;
  /** Each resolves true when signed in; otherwise `error` holds the catalogue text. */
  login(email: string, password: string): Promise<boolean>;
  register(email: string, password: string, name: string): Promise<boolean>;
  loginWithGoogle(credential: string, clientId: string): Promise<boolean>;
  adminLogin(email: string, password: string): Promise<boolean>;
  /** Sets a new password from a reset link and signs in; false with `error` set otherwise. */
  resetPassword(token: string, newPassword: string): Promise<boolean>;
  logout(): Promise<void>;
  clearError(): void;
  refreshUser(): Promise<SessionUser | null>;
  /** True once the startup session check has answered. */
  checked: boolean;
  /** The data load after sign-in (docs/product.md#states); null before the first one. */
  dataLoad: DataLoadState | null;
  userData: UserData | null;
  /** The shell's error banner text (cleared after 5 s). */
  banner: string | null;
  showBanner(message: string): void;
  dismissBanner(): void;
  /** The underlying calls, for the auth dialog's Google configuration. */
  service: SessionService;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export interface SessionProviderProps {
  children: ReactNode;
  api?: ApiClient;
  service?: SessionService;
  checkDelayMs?: number;
}

export function SessionProvider({
  children,
  api = kitApi,
  service,
  checkDelayMs = SESSION_CHECK_DELAY_MS,
}: SessionProviderProps) {
  const sessionService = useMemo(() => service ?? createSessionService(api), [service, api]);
  const [user, setUser] = useState<SessionUser | null>(null);
  const [loading, setLoading] = useState(true);
  const [checked, setChecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dataLoad, setDataLoad] = useState<DataLoadState | null>(null);
  const [userData, setUserData] = useState<UserData | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const bannerTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef(0);

  const showBanner = useCallback((message: string) => {
    setBanner(message);
    clearTimeout(bannerTimer.current);
    bannerTimer.current = setTimeout(() => setBanner(null), BANNER_CLEAR_MS);
  }, []);
  const dismissBanner = useCallback(() => {
    clearTimeout(bannerTimer.current);
    setBanner(null);
  }, []);
  useEffect(() => () => clearTimeout(bannerTimer.current), []);

  /** loading is true while any session request is in flight (docs/product.md#states). */
  const track = useCallback(async <T,>(work: () => Promise<T>): Promise<T> => {
    inFlight.current++;
    setLoading(true);
    try {
      return await work();
    } finally {
      inFlight.current--;
      if (inFlight.current === 0) setLoading(false);
    }
  }, []);

  // Startup check, ~100 ms after start; silent when signed out.
  useEffect(() => {
    let cancelled = false;
    inFlight.current++;
    const timer = setTimeout(() => {
      void sessionService
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
          inFlight.current--;
          setChecked(true);
          if (inFlight.current === 0) setLoading(false);
        });
    }, checkDelayMs);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [sessionService, checkDelayMs]);

  // Data load, once per sign-in.
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

  const forget = useCallback(() => {
    clearAuth();
    api.cache.clear();
    setUser(null);
    setUserData(null);
    setDataLoad(null);
    setError(null);
  }, [api]);

  // The client's "your session is gone" signal: sign out locally and say so.
  useEffect(() => {
    const onAuthError = (event: Event) => {
      const detail = (event as CustomEvent<{ message?: string }>).detail;
      forget();
      showBanner(detail?.message ?? 'Session expired');
    };
    window.addEventListener(AUTH_ERROR_EVENT, onAuthError);
    return () => window.removeEventListener(AUTH_ERROR_EVENT, onAuthError);
  }, [forget, showBanner]);

  const clearError = useCallback(() => setError(null), []);

  const settle = useCallback((outcome: AuthOutcome): boolean => {
    if (outcome.ok) {
      saveAuth(outcome.user, outcome.token);
      setUser(outcome.user);
      setError(null);
      return true;
    }
    setError(outcome.error);
    return false;
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({
      user,
      loading,
      error,
      isAuthenticated: user !== null,
      checked,
      dataLoad,
      userData,
      banner,
      showBanner,
      dismissBanner,
      service: sessionService,
      login: (email, password) => track(() => sessionService.login(email, password)).then(settle),
      register: (email, password, name) =>
        track(() => sessionService.register(email, password, name)).then(settle),
      loginWithGoogle: (credential, clientId) =>
        track(() => sessionService.loginWithGoogle(credential, clientId)).then(settle),
      adminLogin: (email, password) => track(() => sessionService.adminLogin(email, password)).then(settle),
      resetPassword: (token, newPassword) =>
        track(() => sessionService.resetPassword(token, newPassword)).then(settle),
      async logout() {
        try {
          await track(() => sessionService.logout());
        } catch (err) {
          // Signing out locally matters more than the server's answer (docs/product.md#states).
          console.warn('Logout call failed; signed out locally', err);
        } finally {
          forget();
        }
      },
      clearError,
      refreshUser: () =>
        track(async () => {
          const found = await sessionService.checkSession();
          if (found) {
            saveAuth(found);
            setUser(found);
          } else {
            forget();
          }
          return found;
        }),
    }),
    [
      user,
      loading,
      error,
      checked,
      dataLoad,
      userData,
      banner,
      showBanner,
      dismissBanner,
      sessionService,
      track,
      settle,
      forget,
    ],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession() must be used inside <SessionProvider>');
  return value;
}
