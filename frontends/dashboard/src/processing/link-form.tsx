// "Paste a link" on the Processing Hub: the link is checked and queued on submit; why it cannot be
// queued shows under the box until it is edited.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@kaboodle/kit';

/** onAdd queues the link, answering why not (or null once queued). */
export function LinkForm({ onAdd }: { onAdd: (text: string) => string | null }) {
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const ids = { link: useId(), linkError: useId() };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = onAdd(link);
    setLinkError(problem);
    if (problem === null) setLink('');
  };

  return (
    <form onSubmit={submit} noValidate className="kb-field">
      <label htmlFor={ids.link}>Paste a link</label>
      <div className="kbd-row">
        <input
          id={ids.link}
          className="kb-input"
          type="url"
          inputMode="url"
          placeholder="https://example.com/report.pdf"
          value={link}
          aria-invalid={linkError !== null}
          aria-describedby={linkError ? ids.linkError : undefined}
          onChange={(e) => {
            setLink(e.target.value);
            setLinkError(null);
          }}
        />
        <Button type="submit" variant="secondary" disabled={link.trim() === ''}>
          Add link
        </Button>
      </div>
      {linkError && (
        <span id={ids.linkError} className="kbd-item__error" role="alert">
          {linkError}
        </span>
      )}
    </form>
  );
}
