// The Search screen's form: the query box and Search button, the mode switch (Semantic or Keyword),
// and the photo picker that finds an item by a picture of it.
import { useId, type FormEvent } from 'react';
import { Button, PhotoPicker } from '@kaboodle/kit';
import type { SearchMode } from './search-api.ts';

const MODES: { mode: SearchMode; title: string; hint: string }[] = [
  { mode: 'semantic', title: 'Semantic Search', hint: 'Find items by meaning and context' },
  { mode: 'keyword', title: 'Keyword Search', hint: 'Find exact word matches' },
];

export interface SearchFormProps {
  text: string;
  mode: SearchMode;
  busy: boolean;
  onText: (text: string) => void;
  onMode: (mode: SearchMode) => void;
  onSubmit: (e: FormEvent) => void;
  onPhoto: (photo: File) => void;
}

export function SearchForm({ text, mode, busy, onText, onMode, onSubmit, onPhoto }: SearchFormProps) {
  const inputId = useId();
  return (
    <form className="kb-search__form kb-frame" onSubmit={onSubmit} role="search">
      <label htmlFor={inputId} className="kb-visually-hidden">
        Search your documents and inventory
      </label>
      <div className="kb-search__row">
        <input
          id={inputId}
          className="kb-input kb-search__input"
          type="search"
          value={text}
          maxLength={1000}
          placeholder="Describe what you're looking for, e.g. “red electronics in the storage room”"
          onChange={(e) => onText(e.target.value)}
        />
        <Button type="submit" disabled={text.trim() === '' || busy}>
          Search
        </Button>
      </div>
      <fieldset className="kb-search__modes">
        <legend className="kb-visually-hidden">Search mode</legend>
        {MODES.map((m) => (
          <label key={m.mode} className={`kb-search__mode${mode === m.mode ? ' is-active' : ''}`}>
            <input
              type="radio"
              name="search-mode"
              value={m.mode}
              checked={mode === m.mode}
              onChange={() => onMode(m.mode)}
            />
            <span>
              <strong>{m.title}</strong>
              <small>{m.hint}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <PhotoPicker onPhoto={onPhoto} busy={busy} hint="or find an item by a photo of it" />
    </form>
  );
}
