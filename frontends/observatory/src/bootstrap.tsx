// Standalone mount for `rspack serve` (the product itself loads ./App through the shell).
import '@kaboodle/kit/theme/theme.css';
import { mountStandalone } from '@kaboodle/kit/mount-standalone.tsx';
import App from './app.tsx';

mountStandalone(App);
