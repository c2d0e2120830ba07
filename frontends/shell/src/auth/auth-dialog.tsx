// The authentication dialog (docs/product.md#authentication-dialog, #states): welcome → google | email ⇄
// register → processing → success, with the catalogue's error texts. The progress creeps while the answer is
// awaited and fills the moment it arrives; success then holds only a short beat (the spec had 500 ms + 1 s of
// pure waiting).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Banner, Button, Dialog, Progress } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import type { GoogleConfig } from '../session/session.service.ts';
import { PASSWORDS_DIFFER } from './auth-texts.ts';
import { EmailStep } from './email-step.tsx';
import type { CredentialsForm } from './email-step.tsx';
import { ForgotPasswordStep } from './forgot-password-step.tsx';
import { GoogleSignInButton } from './google-sign-in-button.tsx';

export type AuthStep = 'welcome' | 'google' | 'email' | 'register' | 'forgot' | 'processing' | 'success';

export const AUTH_CARD_MAX_WIDTH = 480;
export const STEP_ANIMATION_MS = 300;
export const PROGRESS_TICK_MS = 300;
export const PROGRESS_MAX_STEP = 15;
export const SUCCESS_AFTER_PROGRESS_MS = 150;
export const SUCCESS_CALLBACK_DELAY_MS = 450;
export { PASSWORDS_DIFFER } from './auth-texts.ts';
export const WIDGET_ERROR = 'Google authentication failed';

const TITLES: Record<AuthStep, string> = {
  welcome: 'Welcome to Kaboodle',
  google: 'Sign in with Google',
  email: 'Sign In',
  register: 'Create Account',
  forgot: 'Reset Password',
  processing: 'Verifying your credentials',
  success: 'You are in!',
};

export interface AuthDialogProps {
  open: boolean;
  onClose: () => void;
  onSuccess: () => void;
  onError?: (message: string) => void;
  initialStep?: 'welcome' | 'email' | 'register' | 'forgot';
}

const EMPTY: CredentialsForm = { email: '', password: '', name: '', confirmPassword: '' };

export default function AuthDialog({
  open,
  onClose,
  onSuccess,
  onError,
  initialStep = 'welcome',
}: AuthDialogProps) {
  const session = useSession();
  const [step, setStep] = useState<AuthStep>(initialStep);
  const [leaving, setLeaving] = useState(false);
  const [form, setForm] = useState<CredentialsForm>(EMPTY);
  const [localError, setLocalError] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const [google, setGoogle] = useState<GoogleConfig>({ enabled: false, clientId: null });
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const requestDone = useRef<'pending' | 'ok' | 'failed'>('pending');
  const failedStep = useRef<AuthStep>('email');
  const callbacks = useRef({ onSuccess, onError });
  callbacks.current = { onSuccess, onError };
  const { clearError } = session;

  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.current.delete(t);
      fn();
    }, ms);
    timers.current.add(t);
  };
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  // A fresh dialog every time it opens (and only then: a sign-in re-renders everything around it).
  const resetInputs = useRef({ initialStep, clearError, service: session.service });
  resetInputs.current = { initialStep, clearError, service: session.service };
  useEffect(() => {
    if (!open) return;
    const { initialStep: first, clearError: clear, service } = resetInputs.current;
    setStep(first);
    setForm(EMPTY);
    setLocalError(null);
    setProgress(0);
    clear();
    let cancelled = false;
    void service.googleConfig().then((config) => {
      if (!cancelled) setGoogle(config);
    });
    return () => {
      cancelled = true;
    };
  }, [open]);

  // While the answer is awaited: a random step of up to 15 % every 300 ms, waiting at 90 %. The
  // answer completes it at once (runSignIn), and success follows after a short beat.
  useEffect(() => {
    if (step !== 'processing') return;
    const tick = setInterval(() => {
      setProgress((p) =>
        requestDone.current === 'ok' ? 100 : Math.min(90, p + Math.random() * PROGRESS_MAX_STEP),
      );
    }, PROGRESS_TICK_MS);
    return () => clearInterval(tick);
  }, [step]);
  useEffect(() => {
    if (step === 'processing' && progress >= 100) {
      later(() => {
        setStep('success');
        later(() => callbacks.current.onSuccess(), SUCCESS_CALLBACK_DELAY_MS);
      }, SUCCESS_AFTER_PROGRESS_MS);
    }
  }, [step, progress]);

  const goTo = (next: AuthStep) => {
    clearErrors();
    setLeaving(true);
    later(() => {
      setLeaving(false);
      setStep(next);
    }, STEP_ANIMATION_MS);
  };

  const clearErrors = () => {
    setLocalError(null);
    clearError();
  };

  const update = (field: keyof CredentialsForm) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [field]: e.target.value }));
    if (localError || session.error) clearErrors();
  };

  const runSignIn = async (attempt: () => Promise<boolean>, backTo: AuthStep) => {
    requestDone.current = 'pending';
    failedStep.current = backTo;
    setProgress(0);
    setStep('processing');
    const ok = await attempt();
    if (ok) {
      requestDone.current = 'ok';
      setProgress(100);
      return;
    }
    requestDone.current = 'failed';
    setStep(backTo);
    setForm((f) => ({ ...f, password: '', confirmPassword: '' }));
    callbacks.current.onError?.('sign-in failed');
  };

  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    const registering = step === 'register';
    if (!form.email.trim() || !form.password) return;
    if (registering && !form.name.trim()) return;
    if (registering && form.password !== form.confirmPassword) {
      setLocalError(PASSWORDS_DIFFER);
      return;
    }
    clearErrors();
    // docs/product.md#states: a failure returns to the email step, even when registering.
    void runSignIn(
      () =>
        registering
          ? session.register(form.email.trim(), form.password, form.name.trim())
          : session.login(form.email.trim(), form.password),
      'email',
    );
  };

  const onGoogleCredential = (credential: string | undefined) => {
    if (!google.clientId) return;
    const clientId = google.clientId;
    void runSignIn(() => session.loginWithGoogle(credential ?? '', clientId), 'google');
  };

  // Each step starts with focus on its first field or action (the control that led here is gone).
  const stepRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || leaving) return;
    const first = stepRef.current?.querySelector<HTMLElement>('input, button:not(.kb-banner__close)');
    first?.focus();
  }, [open, step, leaving]);

  const error = localError ?? session.error;
  const showBack = step === 'email' || step === 'register' || step === 'google' || step === 'forgot';

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={TITLES[step]}
      maxWidth={AUTH_CARD_MAX_WIDTH}
      className="kb-auth"
      closeLabel="Close sign-in"
    >
      <div
        ref={stepRef}
        className={`kb-auth__step kb-auth__step--${step}${leaving ? ' kb-auth__step--leaving' : ''}`}
        data-step={step}
      >
        {error && (
          <Banner tone="error" onClick={clearErrors}>
            {error}
          </Banner>
        )}

        {step === 'welcome' && (
          <div className="kb-auth__welcome">
            <p className="kb-auth__lead">
              Sign in to reach your document workspace: Tick will read, summarise and file everything you
              bring.
            </p>
            {google.enabled && (
              <Button variant="secondary" block size="lg" onClick={() => goTo('google')}>
                Continue with Google
              </Button>
            )}
            <Button block size="lg" onClick={() => goTo('email')}>
              Continue with Email
            </Button>
            <p className="kb-auth__hint">
              New here?{' '}
              <button type="button" className="kb-link-button" onClick={() => goTo('register')}>
                Create an account
              </button>
            </p>
          </div>
        )}

        {step === 'google' && google.clientId && (
          <div className="kb-auth__google">
            <p>Choose your Google account to continue.</p>
            <GoogleSignInButton
              clientId={google.clientId}
              onCredential={onGoogleCredential}
              onWidgetError={() => setLocalError(WIDGET_ERROR)}
            />
          </div>
        )}

        {(step === 'email' || step === 'register') && (
          <EmailStep
            registering={step === 'register'}
            form={form}
            update={update}
            onSubmit={submitEmail}
            onToggle={() => {
              clearErrors();
              setStep(step === 'register' ? 'email' : 'register');
            }}
            onForgot={() => {
              clearErrors();
              setStep('forgot');
            }}
          />
        )}

        {step === 'forgot' && (
          <ForgotPasswordStep
            initialEmail={form.email.trim()}
            onBack={() => {
              clearErrors();
              setStep('email');
            }}
          />
        )}

        {step === 'processing' && (
          <div className="kb-auth__processing" aria-live="polite">
            <div className="kb-auth__spinner" aria-hidden="true" />
            <Progress value={progress} label="Verifying" />
          </div>
        )}

        {step === 'success' && (
          <div className="kb-auth__success" aria-live="polite">
            <div className="kb-auth__check" aria-hidden="true">
              ✓
            </div>
            <p>Welcome{session.user?.name ? `, ${session.user.name}` : ''}! Preparing your workspace...</p>
          </div>
        )}

        {showBack && (
          <Button variant="ghost" className="kb-auth__back" onClick={() => goTo('welcome')}>
            ← Back
          </Button>
        )}
      </div>
    </Dialog>
  );
}
