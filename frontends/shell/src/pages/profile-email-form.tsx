// The profile page's email card: the sign-in address and whether it is verified, and a change of
// address that takes effect only once the link mailed to the new address is opened (privileges
// follow verified addresses). The current password guards the change.
import { useState, type FormEvent } from 'react';
import { Banner, Button, OrnamentalFrame } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { accountApi, errorText, formatWhen } from './account-api.ts';
import type { Feedback } from './profile-page.tsx';

export function EmailForm() {
  const { user, refreshUser } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const clear = () => setFeedback(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (email.trim() === '' || password === '') {
      setFeedback({ tone: 'error', text: 'Please fill in the new address and your current password.' });
      return;
    }
    setSaving(true);
    setFeedback(null);
    try {
      const res = await accountApi.changeEmail(email.trim(), password);
      setEmail('');
      setPassword('');
      await refreshUser();
      setFeedback({ tone: 'success', text: res?.message?.trim() || 'Email address saved.' });
    } catch (err) {
      setFeedback({ tone: 'error', text: errorText(err, 'Changing the email address failed.') });
    } finally {
      setSaving(false);
    }
  };

  const verified = user?.email_verified_at;
  return (
    <OrnamentalFrame as="section" className="kbp-card" aria-labelledby="kbp-email-title">
      <h2 id="kbp-email-title">Email address</h2>
      <p className="kbp-field-hint" data-testid="email-status">
        {verified
          ? `${user?.email} is verified (since ${formatWhen(verified)}).`
          : verified === null
            ? `${user?.email} is not verified yet: open the link we emailed you.`
            : user?.email}
        {user?.pending_email && ` Waiting for you to open the link sent to ${user.pending_email}.`}
      </p>
      <form onSubmit={submit} noValidate>
        <div className="kbp-form-row">
          <div className="kb-field">
            <label htmlFor="kbp-new-email">New email address</label>
            <input
              id="kbp-new-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                clear();
              }}
            />
          </div>
          <div className="kb-field">
            <label htmlFor="kbp-email-password">Current password</label>
            <input
              id="kbp-email-password"
              name="current_password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                clear();
              }}
            />
          </div>
        </div>
        <div className="kbp-form-actions">
          <Button type="submit" variant="secondary" disabled={saving}>
            {saving ? 'Sending…' : 'Change email'}
          </Button>
          {feedback && (
            <Banner tone={feedback.tone} onDismiss={clear}>
              {feedback.text}
            </Banner>
          )}
        </div>
      </form>
    </OrnamentalFrame>
  );
}
