// The session-loading screen (docs/product.md#states): 600 ms steps at 20/40/60/80/100 while the session is
// checked; when signed out it idles with a message about building the app.
import { useEffect, useState } from 'react';
import { Progress } from '@kaboodle/kit';

export const SESSION_STEP_MS = 600;
export const SESSION_STEPS: readonly { progress: number; message: string }[] = [
  { progress: 20, message: 'Connecting to the authentication service...' },
  { progress: 40, message: 'Validating your credentials...' },
  { progress: 60, message: 'Loading your user profile...' },
  { progress: 80, message: 'Preparing your workspace...' },
  { progress: 100, message: 'Almost ready...' },
];
export const SESSION_IDLE_MESSAGE = 'Building your Kaboodle workspace...';

export interface SessionLoadingScreenProps {
  loading: boolean;
  /** Show nothing for this long first, so a fast session check never flashes a screen. */
  graceMs?: number;
}

export function SessionLoadingScreen({ loading, graceMs = 0 }: SessionLoadingScreenProps) {
  const [visible, setVisible] = useState(graceMs === 0);
  const [step, setStep] = useState(0);

  useEffect(() => {
    if (graceMs === 0) return;
    const t = setTimeout(() => setVisible(true), graceMs);
    return () => clearTimeout(t);
  }, [graceMs]);

  useEffect(() => {
    if (!loading) return;
    setStep(0);
    const t = setInterval(() => setStep((s) => Math.min(s + 1, SESSION_STEPS.length - 1)), SESSION_STEP_MS);
    return () => clearInterval(t);
  }, [loading]);

  if (!visible) return null;
  const current = SESSION_STEPS[step]!;
  return (
    <div className="kb-session-loading" data-testid="session-loading">
      <div className="kb-frame kb-session-loading__card">
        <div className="kb-auth__spinner" aria-hidden="true" />
        <p role="status" aria-live="polite">
          {loading ? current.message : SESSION_IDLE_MESSAGE}
        </p>
        <Progress value={loading ? current.progress : 0} label="Session" />
      </div>
    </div>
  );
}
