import { createRspackConfig } from '../kit/build/create-rspack-config.ts';
import federation, { REMOTES } from './module-federation.config.ts';

// In development the API and the remotes come from a running `kaboodle` (make up) unless told otherwise.
const backend = process.env.KABOODLE_DEV_BACKEND ?? 'http://localhost:8080';

export default createRspackConfig({
  appDir: import.meta.dirname,
  publicPath: '/',
  federation,
  title: 'Kaboodle',
  devPort: 3000,
  devProxy: [
    { context: ['/api', '/process', '/upload'], target: backend, changeOrigin: false },
    {
      context: REMOTES.map((name) => `/mf/${name}`),
      // `npm run serve` in a remote serves it live on its own port (3001…); otherwise the built one.
      target: backend,
      router: (req: { url?: string }) => {
        const name = REMOTES.find((r) => req.url?.startsWith(`/mf/${r}/`));
        const port = process.env[`KABOODLE_DEV_${name?.toUpperCase()}_PORT`];
        return port ? `http://localhost:${port}` : backend;
      },
    },
  ],
});
