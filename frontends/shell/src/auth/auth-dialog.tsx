// The authentication dialog (docs/product.md#authentication-dialog, #states): welcome → google | email ⇄
// register → processing → success, with the catalogue's error texts. useAuthFlow owns the steps, the form
// and the sign-in calls (use-auth-flow.ts); the steps only render.
import { useEffect, useRef } from 'react';
import { Banner, Button, Dialog } from '@kaboodle/kit';
import { GoogleStep, ProcessingStep, SuccessStep, WelcomeStep } from './auth-steps.tsx';
import { EmailStep } from './email-step.tsx';
import { ForgotPasswordStep } from './forgot-password-step.tsx';
import { useAuthFlow, type AuthStep, type FirstAuthStep } from './use-auth-flow.ts';

export {
  PROGRESS_MAX_STEP,
  PROGRESS_TICK_MS,
  STEP_ANIMATION_MS,
  SUCCESS_AFTER_PROGRESS_MS,
  SUCCESS_CALLBACK_DELAY_MS,
  WIDGET_ERROR,
  type AuthStep,
} from './use-auth-flow.ts';
export { PASSWORDS_DIFFER } from './auth-texts.ts';

export const AUTH_CARD_MAX_WIDTH = 480;

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
  initialStep?: FirstAuthStep;
}

export default function AuthDialog({
  open,
  onClose,
  onSuccess,
  onError,
  initialStep = 'welcome',
}: AuthDialogProps) {
  const flow = useAuthFlow({ open, initialStep, onSuccess, onError });
  const { step, leaving, error } = flow;

  // Each step starts with focus on its first field or action (the control that led here is gone).
  const stepRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || leaving) return;
    const first = stepRef.current?.querySelector<HTMLElement>('input, button:not(.kb-banner__close)');
    first?.focus();
  }, [open, step, leaving]);

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
          <Banner tone="error" onClick={flow.clearErrors}>
            {error}
          </Banner>
        )}
        {step === 'welcome' && (
          <WelcomeStep
            googleEnabled={flow.google.enabled}
            onGoogle={() => flow.goTo('google')}
            onEmail={() => flow.goTo('email')}
            onRegister={() => flow.goTo('register')}
          />
        )}
        {step === 'google' && flow.google.clientId && (
          <GoogleStep
            clientId={flow.google.clientId}
            onCredential={flow.onGoogleCredential}
            onWidgetError={flow.onWidgetError}
          />
        )}
        {(step === 'email' || step === 'register') && (
          <EmailStep
            registering={step === 'register'}
            form={flow.form}
            update={flow.update}
            onSubmit={flow.submitEmail}
            onToggle={() => flow.switchTo(step === 'register' ? 'email' : 'register')}
            onForgot={() => flow.switchTo('forgot')}
          />
        )}
        {step === 'forgot' && (
          <ForgotPasswordStep initialEmail={flow.form.email.trim()} onBack={() => flow.switchTo('email')} />
        )}
        {step === 'processing' && <ProcessingStep progress={flow.progress} />}
        {step === 'success' && <SuccessStep name={flow.userName} />}
        {showBack && (
          <Button variant="ghost" className="kb-auth__back" onClick={() => flow.goTo('welcome')}>
            ← Back
          </Button>
        )}
      </div>
    </Dialog>
  );
}
