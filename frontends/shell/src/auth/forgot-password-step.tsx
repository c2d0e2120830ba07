// The auth dialog's "Forgot password?" step: ask for a reset link by email. The answer is the same
// whether or not the address has an account, so it is shown as it comes.
import { useState, type FormEvent } from 'react';
import { Banner, Button } from '@kaboodle/kit';
import { accountApi, errorText } from '../pages/account-api.ts';

export const RESET_LINK_FALLBACK =
  'If an account uses that address, we have emailed it a link to reset the password.';

export function ForgotPasswordStep({ initialEmail, onBack }: { initialEmail: string; onBack: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [sending, setSending] = useState(false);
  const [feedback, setFeedback] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return;
    setSending(true);
    setFeedback(null);
    try {
      const res = await accountApi.requestPasswordReset(email.trim());
      setFeedback({ tone: 'success', text: res?.message?.trim() || RESET_LINK_FALLBACK });
    } catch (err) {
      setFeedback({ tone: 'error', text: errorText(err, 'Sending the reset link failed.') });
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="kb-auth__form" onSubmit={submit}>
      <p className="kb-auth__lead">
        Enter the email address of your account and we will send you a link to choose a new password.
      </p>
      {feedback && (
        <Banner tone={feedback.tone} onDismiss={() => setFeedback(null)}>
          {feedback.text}
        </Banner>
      )}
      <div className="kb-field">
        <label htmlFor="auth-reset-email">Email</label>
        <input
          id="auth-reset-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setFeedback(null);
          }}
        />
      </div>
      <Button type="submit" block size="lg" disabled={sending}>
        {sending ? 'Sending…' : 'Send reset link'}
      </Button>
      <p className="kb-auth__hint">
        Remembered it?{' '}
        <button type="button" className="kb-link-button" onClick={onBack}>
          Back to sign in
        </button>
      </p>
    </form>
  );
}
