// Where each remote's manifest is comes from the server at run time (/runtime-config.json), not from
// the shell's build: a team ships a new version of its remote by pointing the web target at its
// versioned manifest, and the shell picks it up on the next page load. A manifest and the chunks it
// names always come from the same version folder. Without an answer the build's defaults stay.
import { registerRemotes } from '@module-federation/enhanced/runtime';

/** The remotes the shell mounts (module-federation.config.ts declares the same names). */
export const SHELL_REMOTES = ['dashboard', 'vault', 'inventory', 'observatory'] as const;

export interface RuntimeConfig {
  remotes: Record<string, string>;
}

type Register = (remotes: Array<{ name: string; entry: string }>, options: { force: boolean }) => void;

/** The remotes to register from a runtime config, keeping only known names and plausible URLs. */
export function remotesFrom(
  config: unknown,
  known: readonly string[],
): Array<{ name: string; entry: string }> {
  const remotes = (config as Partial<RuntimeConfig> | null)?.remotes;
  if (!remotes || typeof remotes !== 'object') return [];
  return known.flatMap((name) => {
    const entry = remotes[name];
    return typeof entry === 'string' && /(^\/|^https?:\/\/)\S*mf-manifest\.json$/.test(entry)
      ? [{ name, entry }]
      : [];
  });
}

export async function applyRuntimeRemotes(
  known: readonly string[],
  fetchImpl: typeof fetch = fetch,
  register: Register = registerRemotes as Register,
): Promise<Array<{ name: string; entry: string }>> {
  try {
    const res = await fetchImpl('/runtime-config.json', {
      cache: 'no-cache',
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) return [];
    const remotes = remotesFrom(await res.json(), known);
    if (remotes.length > 0) register(remotes, { force: true });
    return remotes;
  } catch {
    return []; // the build's remote URLs still work
  }
}
