// The session life in React (docs/product.md#states): the delayed startup check, sign-in calls, logout that
// always clears, the data load after sign-in, the 5 s error banner and the client's `auth:error` event.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  AUTH_ERROR_EVENT,
  api as kitApi,
  clearAuth,
  saveAuth,
  type ApiClient,
  type SessionUser,
} from '@kaboodle/kit';
import { createSessionService, type AuthOutcome, type SessionService } from './session.service.ts';
import { useShellBanner } from './use-shell-banner.ts';
import { useInFlight, useStartupCheck, useUserDataLoad, type DataLoadState } from './use-session-state.ts';
import type { UserData } from './user-data.service.ts';

export const SESSION_CHECK_DELAY_MS = 100;
export { BANNER_CLEAR_MS } from './use-shell-banner.ts';
export type { DataLoadState } from './use-session-state.ts';

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

/** The text of the shell's banner when the server did not confirm a sign-out (this device is signed out). */
export const logoutFailed = (reason: string) =>
  `You are signed out on this device, but the server did not confirm it: ${reason}`;

/** The catalogue's text of a failed call (docs/product.md#messages). */
const failureText = (err: unknown): string =>
  err instanceof Error && err.message ? err.message : 'Unknown error occurred';

export function SessionProvider({
  children,
  api = kitApi,
  service,
  checkDelayMs = SESSION_CHECK_DELAY_MS,
}: SessionProviderProps) {
  const sessionService = useMemo(() => service ?? createSessionService(api), [service, api]);
  const [user, setUser] = useState<SessionUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { banner, showBanner, dismissBanner } = useShellBanner();
  const inFlight = useInFlight();
  const { loading, track } = inFlight;
  const checked = useStartupCheck(sessionService, checkDelayMs, setUser, inFlight);
  const { dataLoad, userData, reset: resetUserData } = useUserDataLoad(user, api, showBanner);

  const forget = useCallback(() => {
    clearAuth();
    api.cache.clear();
    setUser(null);
    resetUserData();
    setError(null);
  }, [api, resetUserData]);

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
        let failure: { reason: unknown } | null = null;
        try {
          await track(() => sessionService.logout());
        } catch (err) {
          failure = { reason: err };
        } finally {
          // Signing out locally matters more than the server's answer (docs/product.md#states).
          forget();
        }
        // ...but the person hears that the server may still hold the session.
        if (failure !== null) showBanner(logoutFailed(failureText(failure.reason)));
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
      clearError,
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
