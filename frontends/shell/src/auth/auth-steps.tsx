// The auth dialog's simple steps: welcome (Google, email, create an account), Google's own button,
// processing (spinner and progress) and success.
import { Button, Progress } from '@kaboodle/kit';
import { GoogleSignInButton } from './google-sign-in-button.tsx';

export interface WelcomeStepProps {
  googleEnabled: boolean;
  onGoogle: () => void;
  onEmail: () => void;
  onRegister: () => void;
}

export function WelcomeStep({ googleEnabled, onGoogle, onEmail, onRegister }: WelcomeStepProps) {
  return (
    <div className="kb-auth__welcome">
      <p className="kb-auth__lead">
        Sign in to reach your document workspace: Tick will read, summarise and file everything you bring.
      </p>
      {googleEnabled && (
        <Button variant="secondary" block size="lg" onClick={onGoogle}>
          Continue with Google
        </Button>
      )}
      <Button block size="lg" onClick={onEmail}>
        Continue with Email
      </Button>
      <p className="kb-auth__hint">
        New here?{' '}
        <button type="button" className="kb-link-button" onClick={onRegister}>
          Create an account
        </button>
      </p>
    </div>
  );
}

export interface GoogleStepProps {
  clientId: string;
  onCredential: (credential: string | undefined) => void;
  onWidgetError: () => void;
}

export function GoogleStep({ clientId, onCredential, onWidgetError }: GoogleStepProps) {
  return (
    <div className="kb-auth__google">
      <p>Choose your Google account to continue.</p>
      <GoogleSignInButton clientId={clientId} onCredential={onCredential} onWidgetError={onWidgetError} />
    </div>
  );
}

export function ProcessingStep({ progress }: { progress: number }) {
  return (
    <div className="kb-auth__processing" aria-live="polite">
      <div className="kb-auth__spinner" aria-hidden="true" />
      <Progress value={progress} label="Verifying" />
    </div>
  );
}

export function SuccessStep({ name }: { name: string | null }) {
  return (
    <div className="kb-auth__success" aria-live="polite">
      <div className="kb-auth__check" aria-hidden="true">
        ✓
      </div>
      <p>Welcome{name ? `, ${name}` : ''}! Preparing your workspace...</p>
    </div>
  );
}
