// /settings (docs/product.md#profile-settings-and-admin): default AI instructions (≤ 2000 characters) and the
// default processing destination (Auto / Document / Inventory item), read with GET and saved with PUT
// /api/auth/settings.
import { useEffect, useState, type FormEvent } from 'react';
import { Banner, Button } from '@kaboodle/kit';
import { OrnamentalFrame } from '@kaboodle/kit';
import {
  accountApi,
  errorText,
  MAX_INSTRUCTIONS,
  type Destination,
  type UserSettings,
} from './account-api.ts';
import './pages.css';

const DESTINATION_CHOICES: { value: Destination; label: string; hint: string }[] = [
  {
    value: 'auto',
    label: 'Auto',
    hint: 'Images become inventory items, everything else becomes a document.',
  },
  { value: 'document', label: 'Document', hint: 'Every file is read and filed in the Document Vault.' },
  { value: 'inventory', label: 'Inventory item', hint: 'Every file becomes a catalogued inventory item.' },
];

type Feedback = { tone: 'success' | 'error'; text: string } | null;

export default function SettingsPage() {
  const [settings, setSettings] = useState<UserSettings | null>(null);
  const [saved, setSaved] = useState<UserSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const load = async () => {
    setLoadError(null);
    try {
      const s = await accountApi.getSettings();
      setSettings(s);
      setSaved(s);
    } catch (err) {
      setLoadError(errorText(err, 'Loading your settings failed.'));
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const over = settings ? settings.default_instructions.length > MAX_INSTRUCTIONS : false;
  const dirty =
    settings !== null &&
    saved !== null &&
    (settings.default_instructions !== saved.default_instructions ||
      settings.default_destination !== saved.default_destination);

  const update = (patch: Partial<UserSettings>) => {
    setSettings((s) => (s ? { ...s, ...patch } : s));
    setFeedback(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!settings) return;
    if (over) {
      setFeedback({
        tone: 'error',
        text: `Default AI instructions can be at most ${MAX_INSTRUCTIONS} characters.`,
      });
      return;
    }
    setSaving(true);
    setFeedback(null);
    try {
      const stored = await accountApi.saveSettings(settings);
      setSettings(stored);
      setSaved(stored);
      setFeedback({ tone: 'success', text: 'Settings saved.' });
    } catch (err) {
      setFeedback({ tone: 'error', text: errorText(err, 'Saving your settings failed.') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="kbp-account">
      <header>
        <p className="kb-eyebrow">Account</p>
        <h1>Settings</h1>
        <p className="kbp-muted">
          Defaults for every new batch you process. You can still change them per batch.
        </p>
      </header>

      {loadError && (
        <Banner tone="error">
          {loadError}{' '}
          <Button size="sm" variant="ghost" onClick={() => void load()}>
            Try again
          </Button>
        </Banner>
      )}

      {!settings && !loadError && (
        <p className="kbp-muted" role="status">
          Loading your settings…
        </p>
      )}

      {settings && (
        <OrnamentalFrame as="section" className="kbp-card" aria-labelledby="kbp-processing-title">
          <h2 id="kbp-processing-title">Processing defaults</h2>
          <form onSubmit={submit} noValidate>
            <div className="kb-field">
              <label htmlFor="kbp-instructions">Default AI instructions</label>
              <textarea
                id="kbp-instructions"
                name="default_instructions"
                rows={6}
                value={settings.default_instructions}
                placeholder="e.g. Focus on legal obligations and deadlines; tag every party named."
                aria-describedby="kbp-instructions-count"
                aria-invalid={over}
                onChange={(e) => update({ default_instructions: e.target.value })}
              />
              <span
                id="kbp-instructions-count"
                className="kbp-field-hint"
                data-over={over}
                aria-live="polite"
              >
                {settings.default_instructions.length} / {MAX_INSTRUCTIONS} characters
              </span>
            </div>
            <fieldset className="kbp-choices">
              <legend>Default processing destination</legend>
              {DESTINATION_CHOICES.map((choice) => (
                <label key={choice.value} className="kbp-choice">
                  <input
                    type="radio"
                    name="default_destination"
                    value={choice.value}
                    checked={settings.default_destination === choice.value}
                    onChange={() => update({ default_destination: choice.value })}
                  />
                  <strong>{choice.label}</strong>
                  <span>{choice.hint}</span>
                </label>
              ))}
            </fieldset>
            <div className="kbp-form-actions">
              <Button type="submit" disabled={saving || over || !dirty}>
                {saving ? 'Saving…' : 'Save settings'}
              </Button>
              {feedback && (
                <Banner tone={feedback.tone} onDismiss={() => setFeedback(null)}>
                  {feedback.text}
                </Banner>
              )}
            </div>
          </form>
        </OrnamentalFrame>
      )}
    </div>
  );
}
