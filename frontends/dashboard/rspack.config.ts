import { createRspackConfig } from '../kit/build/create-rspack-config.ts';
import federation from './module-federation.config.ts';

export default createRspackConfig({
  appDir: import.meta.dirname,
  publicPath: '/mf/dashboard/',
  federation,
  title: 'Kaboodle · Dashboard',
  devPort: 3001,
});
