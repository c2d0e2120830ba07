// The actions any screen may ask of the shell (contract: openAuthDialog, showDemo, openHelp), and
// the overlays behind them. The dialogs and the loading screen are fetched only when first used (the
// loading screen as soon as the sign-in dialog opens, so nothing flashes between the two).
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../session/session-context.tsx';
import { signInWork, skipsIntro, rememberIntroSeen } from './sign-in-work.ts';
import { preloadRemote } from './remote-loader.ts';

const AuthDialog = lazy(() => import('../auth/auth-dialog.tsx'));
const HelpDialog = lazy(() => import('../help/help-dialog.tsx'));
const importLoadingScreen = () => import('../loading/loading-screen.tsx');
const LoadingScreen = lazy(importLoadingScreen);

/** Covers the page while the loading screen's code arrives (never the bare page in between). */
function LoadingCover() {
  return <div className="kb-loading kb-loading--cover" aria-hidden="true" />;
}

export interface OpenAuthDialogOptions {
  initialStep?: 'welcome' | 'email' | 'register' | 'forgot';
  /** Replaces the default (loading screen, then /dashboard after 2 s). */
  onSuccess?: () => void;
}

export interface ShellActions {
  openAuthDialog(options?: OpenAuthDialogOptions): void;
  showDemo(onComplete?: () => void): void;
  openHelp(): void;
}

const ShellActionsContext = createContext<ShellActions | null>(null);
/** True while a sign-in is under way (dialog or the loading screen after it). */
const AuthFlowContext = createContext(false);

export function ShellActionsProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [auth, setAuth] = useState<OpenAuthDialogOptions | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [loading, setLoading] = useState<{
    onComplete?: () => void;
    key: number;
    /** After a sign-in: the stages follow the real work. */
    signIn?: boolean;
  } | null>(null);
  const [dashboardReady, setDashboardReady] = useState(false);
  const { user, dataLoad } = useSession();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const showDemo = useCallback((onComplete?: () => void) => {
    setLoading((prev) => ({ ...(onComplete ? { onComplete } : {}), key: (prev?.key ?? 0) + 1 }));
  }, []);

  const actions = useMemo<ShellActions>(
    () => ({
      openAuthDialog: (options = {}) => {
        void importLoadingScreen();
        setAuth(options);
      },
      showDemo,
      openHelp: () => setHelpOpen(true),
    }),
    [showDemo],
  );

  // docs/product.md#states: after a sign-in the loading screen shows and /dashboard follows. The dashboard is
  // opened at once behind it (its code and data load meanwhile), and the screen lifts when they are in; a
  // person who has seen it before, or who asks for reduced motion, goes straight there.
  const onAuthSuccess = () => {
    const custom = auth?.onSuccess;
    setAuth(null);
    if (custom) {
      custom();
      return;
    }
    void navigate('/dashboard');
    if (skipsIntro()) return;
    setDashboardReady(false);
    void preloadRemote('dashboard').then(() => {
      if (mounted.current) setDashboardReady(true);
    });
    setLoading((prev) => ({ key: (prev?.key ?? 0) + 1, signIn: true, onComplete: rememberIntroSeen }));
  };
  const work = loading?.signIn ? signInWork(user !== null, dataLoad, dashboardReady) : undefined;

  return (
    <ShellActionsContext.Provider value={actions}>
      <AuthFlowContext.Provider value={auth !== null || loading !== null}>
        {children}
      </AuthFlowContext.Provider>
      <Suspense fallback={loading ? <LoadingCover /> : null}>
        {auth && (
          <AuthDialog
            open
            {...(auth.initialStep ? { initialStep: auth.initialStep } : {})}
            onClose={() => setAuth(null)}
            onSuccess={onAuthSuccess}
          />
        )}
        {helpOpen && <HelpDialog open onClose={() => setHelpOpen(false)} />}
        {loading && (
          <LoadingScreen
            key={loading.key}
            {...(work !== undefined ? { work } : {})}
            onComplete={() => {
              const done = loading.onComplete;
              setLoading(null);
              done?.();
            }}
          />
        )}
      </Suspense>
    </ShellActionsContext.Provider>
  );
}

/** Lets "/" keep the landing behind the dialog and loading screen instead of jumping to /dashboard. */
export function useAuthFlowActive(): boolean {
  return useContext(AuthFlowContext);
}

export function useShellActions(): ShellActions {
  const value = useContext(ShellActionsContext);
  if (!value) throw new Error('useShellActions() must be used inside <ShellActionsProvider>');
  return value;
}
