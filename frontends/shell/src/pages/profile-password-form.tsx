// The profile page's password card: current password, the new one twice (the dialog's "Passwords do
// not match" rule), the password rule shown under the field and the server's message on refusal.
import { useState, type FormEvent } from 'react';
import { Banner, Button, OrnamentalFrame } from '@kaboodle/kit';
import { PASSWORDS_DIFFER } from '../auth/auth-texts.ts';
import { accountApi, errorText, PASSWORD_RULE_HINT } from './account-api.ts';
import type { Feedback } from './profile-page.tsx';

export function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const clear = () => setFeedback(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (current === '' || next === '') {
      setFeedback({ tone: 'error', text: 'Please fill in your current and new password.' });
      return;
    }
    if (next !== confirm) {
      setFeedback({ tone: 'error', text: PASSWORDS_DIFFER });
      return;
    }
    setSaving(true);
    setFeedback(null);
    try {
      const res = await accountApi.changePassword(current, next);
      setCurrent('');
      setNext('');
      setConfirm('');
      setFeedback({ tone: 'success', text: res?.message?.trim() || 'Password changed.' });
    } catch (err) {
      setFeedback({ tone: 'error', text: errorText(err, 'Changing the password failed.') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <OrnamentalFrame as="section" className="kbp-card" aria-labelledby="kbp-password-title">
      <h2 id="kbp-password-title">Change password</h2>
      <form onSubmit={submit} noValidate>
        <div className="kb-field">
          <label htmlFor="kbp-current-password">Current password</label>
          <input
            id="kbp-current-password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => {
              setCurrent(e.target.value);
              clear();
            }}
          />
        </div>
        <div className="kbp-form-row">
          <div className="kb-field">
            <label htmlFor="kbp-new-password">New password</label>
            <input
              id="kbp-new-password"
              name="new_password"
              type="password"
              autoComplete="new-password"
              required
              value={next}
              aria-describedby="kbp-new-password-rule"
              onChange={(e) => {
                setNext(e.target.value);
                clear();
              }}
            />
            <span id="kbp-new-password-rule" className="kbp-field-hint">
              {PASSWORD_RULE_HINT}
            </span>
          </div>
          <div className="kb-field">
            <label htmlFor="kbp-confirm-password">Confirm new password</label>
            <input
              id="kbp-confirm-password"
              name="confirm_password"
              type="password"
              autoComplete="new-password"
              required
              value={confirm}
              aria-invalid={confirm !== '' && confirm !== next}
              onChange={(e) => {
                setConfirm(e.target.value);
                clear();
              }}
            />
          </div>
        </div>
        <div className="kbp-form-actions">
          <Button type="submit" variant="secondary" disabled={saving}>
            {saving ? 'Changing…' : 'Change password'}
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
