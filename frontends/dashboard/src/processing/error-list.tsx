// The Processing Hub's error list (docs/product.md#processing-hub): every failure of this visit, until
// Clear All.
import { Button } from '@kaboodle/kit';

export function ErrorList({ errors, onClear }: { errors: string[]; onClear: () => void }) {
  if (errors.length === 0) return null;
  return (
    <section
      className="kbd-errors"
      aria-labelledby="kbd-errors-title"
      aria-live="polite"
      data-testid="error-list"
    >
      <div className="kbd-errors__head">
        <h2 id="kbd-errors-title">Errors ({errors.length})</h2>
        <Button size="sm" variant="ghost" onClick={onClear}>
          Clear All
        </Button>
      </div>
      <ul role="list">
        {errors.map((message, i) => (
          <li key={`${i}-${message}`}>{message}</li>
        ))}
      </ul>
    </section>
  );
}
