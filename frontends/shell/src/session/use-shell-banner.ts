// The shell's error banner (docs/product.md#app-shell): one message at a time, cleared after 5 s or when
// dismissed.
import { useCallback, useEffect, useRef, useState } from 'react';

export const BANNER_CLEAR_MS = 5000;

export function useShellBanner() {
  const [banner, setBanner] = useState<string | null>(null);
  const bannerTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const showBanner = useCallback((message: string) => {
    setBanner(message);
    clearTimeout(bannerTimer.current);
    bannerTimer.current = setTimeout(() => setBanner(null), BANNER_CLEAR_MS);
  }, []);
  const dismissBanner = useCallback(() => {
    clearTimeout(bannerTimer.current);
    setBanner(null);
  }, []);
  useEffect(() => () => clearTimeout(bannerTimer.current), []);
  return { banner, showBanner, dismissBanner };
}
