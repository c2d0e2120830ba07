// The shell is the host: it owns React, react-dom, the router and the kit (eager singletons) and
// consumes each remote's ./App through the remote's mf-manifest.json, served by the server at /mf/<name>/.
import type { moduleFederationPlugin } from '@module-federation/sdk';
import { sharedSingletons } from '../kit/build/create-rspack-config.ts';

export const REMOTES = ['dashboard', 'vault', 'inventory', 'observatory'] as const;

export default {
  name: 'shell',
  remotes: Object.fromEntries(REMOTES.map((name) => [name, `${name}@/mf/${name}/mf-manifest.json`])),
  manifest: false,
  shared: sharedSingletons(true),
} satisfies moduleFederationPlugin.ModuleFederationPluginOptions;
