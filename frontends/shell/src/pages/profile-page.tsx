// /profile (decisions.md): edit the display name (PATCH /api/auth/profile), see the email, and
// change the password (POST /api/auth/password) with the dialog's "Passwords do not match" rule.
import { useEffect, useState, type FormEvent } from 'react';
import { Banner, Button, displayNameOf } from '@kaboodle/kit';
import { OrnamentalFrame, TickMascot } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { accountApi, errorText } from './account-api.ts';
import { PageStyles } from './page-styles.tsx';

type Feedback = { tone: 'success' | 'error'; text: string } | null;

export const PASSWORDS_DIFFER = 'Passwords do not match';

function ProfileForm() {
  const { user, refreshUser } = useSession();
  const [name, setName] = useState(user?.name ?? '');
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  // the session may finish loading after the page mounts
  useEffect(() => setName(user?.name ?? ''), [user?.name]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setFeedback({ tone: 'error', text: 'Please enter a name.' });
      return;
    }
    setSaving(true);
    setFeedback(null);
    try {
      await accountApi.updateProfile(trimmed);
      await refreshUser();
      setFeedback({ tone: 'success', text: 'Profile saved.' });
    } catch (err) {
      setFeedback({ tone: 'error', text: errorText(err, 'Saving the profile failed.') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <OrnamentalFrame as="section" className="kbp-card" aria-labelledby="kbp-profile-details">
      <h2 id="kbp-profile-details">Details</h2>
      <form onSubmit={submit} noValidate>
        <div className="kbp-form-row">
          <div className="kb-field">
            <label htmlFor="kbp-name">Name</label>
            <input
              id="kbp-name"
              name="name"
              autoComplete="name"
              required
              maxLength={200}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setFeedback(null);
              }}
            />
          </div>
          <div className="kb-field">
            <label htmlFor="kbp-email">Email</label>
            <input
              id="kbp-email"
              name="email"
              type="email"
              className="kbp-readonly"
              value={user?.email ?? ''}
              readOnly
              aria-describedby="kbp-email-hint"
            />
            <span id="kbp-email-hint" className="kbp-field-hint">
              Your sign-in address cannot be changed here.
            </span>
          </div>
        </div>
        <div className="kbp-form-actions">
          <Button type="submit" disabled={saving || name.trim() === (user?.name ?? '')}>
            {saving ? 'Saving…' : 'Save name'}
          </Button>
          {feedback && (
            <Banner tone={feedback.tone} onDismiss={() => setFeedback(null)}>
              {feedback.text}
            </Banner>
          )}
        </div>
      </form>
    </OrnamentalFrame>
  );
}

function PasswordForm() {
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
              onChange={(e) => {
                setNext(e.target.value);
                clear();
              }}
            />
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

export default function ProfilePage() {
  const { user } = useSession();
  return (
    <div className="kbp-account">
      <PageStyles />
      <header className="kbp-account-head">
        <TickMascot size={72} pose="idle" eyewear="spectacles" title="" />
        <div>
          <p className="kb-eyebrow">Account</p>
          <h1>Profile</h1>
          <p>
            Signed in as {displayNameOf(user, 'User')}
            {user?.role === 'admin' && (
              <>
                {' '}
                <span className="kbp-role" data-role="admin">
                  Admin
                </span>
              </>
            )}
          </p>
        </div>
      </header>
      <ProfileForm />
      <PasswordForm />
    </div>
  );
}
