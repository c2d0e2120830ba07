// The one way the vault tells a failed request: the kit's error banner, one per failure, each
// dismissable. Hooks keep the texts; this draws the ones that are set.
import { Banner } from '@kaboodle/kit';

export interface FetchError {
  error: string | null;
  dismissError: () => void;
}

export function FetchErrors({ sources }: { sources: readonly FetchError[] }) {
  const shown = sources.filter((s) => s.error !== null);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((s) => (
        <Banner key={s.error} tone="error" onDismiss={s.dismissError}>
          {s.error}
        </Banner>
      ))}
    </>
  );
}
