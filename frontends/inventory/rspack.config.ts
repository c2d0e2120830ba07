import { createRspackConfig } from '../kit/build/create-rspack-config.ts';
import federation from './module-federation.config.ts';

export default createRspackConfig({
  appDir: import.meta.dirname,
  publicPath: '/mf/inventory/',
  federation,
  title: 'Kaboodle · Inventory',
  devPort: 3003,
});
