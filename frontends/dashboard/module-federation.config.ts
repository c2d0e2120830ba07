// The dashboard remote: /dashboard, /home, /process, /upload and /media-hub, mounted by the shell.
import type { moduleFederationPlugin } from '@module-federation/sdk';
import { sharedSingletons } from '../kit/build/create-rspack-config.ts';

export default {
  name: 'dashboard',
  filename: 'remoteEntry.js',
  exposes: { './App': './src/app.tsx' },
  manifest: true,
  shared: sharedSingletons(false),
} satisfies moduleFederationPlugin.ModuleFederationPluginOptions;
