// The actions any screen may ask of the shell (contract: openAuthDialog, showDemo, openHelp), and
// the overlays behind them. The dialogs and the loading screen are fetched only when first used.
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

const AuthDialog = lazy(() => import('../auth/auth-dialog.tsx'));
const HelpDialog = lazy(() => import('../help/help-dialog.tsx'));
const LoadingScreen = lazy(() => import('../loading/loading-screen.tsx'));

/**
 * docs/product.md#states: after auth success on the landing, the demo screen shows and /dashboard follows
 * after 2 s.
 */
export const DASHBOARD_AFTER_AUTH_MS = 2000;

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
  const [loading, setLoading] = useState<{ onComplete?: () => void; key: number } | null>(null);
  const navTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(navTimer.current), []);

  const showDemo = useCallback((onComplete?: () => void) => {
    setLoading((prev) => ({ ...(onComplete ? { onComplete } : {}), key: (prev?.key ?? 0) + 1 }));
  }, []);

  const actions = useMemo<ShellActions>(
    () => ({
      openAuthDialog: (options = {}) => setAuth(options),
      showDemo,
      openHelp: () => setHelpOpen(true),
    }),
    [showDemo],
  );

  const onAuthSuccess = () => {
    const custom = auth?.onSuccess;
    setAuth(null);
    if (custom) {
      custom();
      return;
    }
    showDemo();
    clearTimeout(navTimer.current);
    navTimer.current = setTimeout(() => navigate('/dashboard'), DASHBOARD_AFTER_AUTH_MS);
  };

  return (
    <ShellActionsContext.Provider value={actions}>
      <AuthFlowContext.Provider value={auth !== null || loading !== null}>
        {children}
      </AuthFlowContext.Provider>
      <Suspense fallback={null}>
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
