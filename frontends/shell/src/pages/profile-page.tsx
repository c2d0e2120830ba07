// /profile (docs/product.md#profile-settings-and-admin): edit the display name (PATCH /api/auth/profile),
// change the email (confirmed by a link mailed to the new address) and the password (POST
// /api/auth/password).
import { useEffect, useState, type FormEvent } from 'react';
import { Banner, Button, displayNameOf } from '@kaboodle/kit';
import { OrnamentalFrame, TickMascot } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { accountApi, errorText } from './account-api.ts';
import './pages.css';
import { EmailForm } from './profile-email-form.tsx';
import { PasswordForm } from './profile-password-form.tsx';

export type Feedback = { tone: 'success' | 'error'; text: string } | null;

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
              Your sign-in address. Change it under Email address below.
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

export default function ProfilePage() {
  const { user } = useSession();
  return (
    <div className="kbp-account">
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
      <EmailForm />
      <PasswordForm />
    </div>
  );
}
