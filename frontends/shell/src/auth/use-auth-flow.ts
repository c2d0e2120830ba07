// The auth dialog's state machine (docs/product.md#authentication-dialog, #states): welcome → google | email ⇄
// register → processing → success. The progress creeps while the answer is awaited and fills the moment it
// arrives; success then holds only a short beat (the spec had 500 ms + 1 s of pure waiting).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSession } from '../session/session-context.tsx';
import type { GoogleConfig } from '../session/session.service.ts';
import { PASSWORDS_DIFFER } from './auth-texts.ts';
import type { CredentialsForm } from './email-step.tsx';
import { useLater } from './use-later.ts';

export type AuthStep = 'welcome' | 'google' | 'email' | 'register' | 'forgot' | 'processing' | 'success';
export type FirstAuthStep = 'welcome' | 'email' | 'register' | 'forgot';

export const STEP_ANIMATION_MS = 300;
export const PROGRESS_TICK_MS = 300;
export const PROGRESS_MAX_STEP = 15;
export const SUCCESS_AFTER_PROGRESS_MS = 150;
export const SUCCESS_CALLBACK_DELAY_MS = 450;
export const WIDGET_ERROR = 'Google authentication failed';

const EMPTY: CredentialsForm = { email: '', password: '', name: '', confirmPassword: '' };

export interface AuthFlowInput {
  open: boolean;
  initialStep: FirstAuthStep;
  onSuccess: () => void;
  onError?: ((message: string) => void) | undefined;
}

/** The processing step's bar: creeps while the answer is awaited, fills once it is in, then success. */
function useSignInProgress(
  step: AuthStep,
  setStep: (step: AuthStep) => void,
  onDone: () => void,
  later: (fn: () => void, ms: number) => void,
) {
  const [progress, setProgress] = useState(0);
  const requestDone = useRef<'pending' | 'ok' | 'failed'>('pending');
  const done = useRef(onDone);
  done.current = onDone;
  // While the answer is awaited: a random step of up to 15 % every 300 ms, waiting at 90 %.
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
        later(() => done.current(), SUCCESS_CALLBACK_DELAY_MS);
      }, SUCCESS_AFTER_PROGRESS_MS);
    }
  }, [step, progress, later, setStep]);
  return { progress, setProgress, requestDone };
}

export function useAuthFlow({ open, initialStep, onSuccess, onError }: AuthFlowInput) {
  const session = useSession();
  const later = useLater();
  const [step, setStep] = useState<AuthStep>(initialStep);
  const [leaving, setLeaving] = useState(false);
  const [form, setForm] = useState<CredentialsForm>(EMPTY);
  const [localError, setLocalError] = useState<string | null>(null);
  const [google, setGoogle] = useState<GoogleConfig>({ enabled: false, clientId: null });
  const callbacks = useRef({ onSuccess, onError });
  callbacks.current = { onSuccess, onError };
  const { clearError } = session;
  const { progress, setProgress, requestDone } = useSignInProgress(
    step,
    setStep,
    () => callbacks.current.onSuccess(),
    later,
  );

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
  }, [open, setProgress]);

  const clearErrors = () => {
    setLocalError(null);
    clearError();
  };

  /** Moves on after the step's leaving animation. */
  const goTo = (next: AuthStep) => {
    clearErrors();
    setLeaving(true);
    later(() => {
      setLeaving(false);
      setStep(next);
    }, STEP_ANIMATION_MS);
  };

  /** Switches at once (no animation), e.g. email ⇄ register. */
  const switchTo = (next: AuthStep) => {
    clearErrors();
    setStep(next);
  };

  const update = (field: keyof CredentialsForm) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [field]: e.target.value }));
    if (localError || session.error) clearErrors();
  };

  // The answer completes the bar at once; success follows after a short beat (useSignInProgress).
  const runSignIn = async (attempt: () => Promise<boolean>, backTo: AuthStep) => {
    requestDone.current = 'pending';
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

  return {
    step,
    leaving,
    form,
    progress,
    google,
    error: localError ?? session.error,
    userName: session.user?.name ?? null,
    clearErrors,
    goTo,
    switchTo,
    update,
    submitEmail,
    onGoogleCredential,
    onWidgetError: () => setLocalError(WIDGET_ERROR),
  };
}
