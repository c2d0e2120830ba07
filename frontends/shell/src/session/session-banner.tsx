// The shell's error banner (docs/product.md#app-shell: "the one place a failed call reaches the person"):
// the session's banner text in the kit's error Banner, dismissible, cleared after 5 s.
import { Banner } from '@kaboodle/kit';
import { useSession } from './session-context.tsx';

export function SessionBanner({ className }: { className?: string }) {
  const { banner, dismissBanner } = useSession();
  if (!banner) return null;
  return (
    <Banner tone="error" onDismiss={dismissBanner} className={className}>
      {banner}
    </Banner>
  );
}
