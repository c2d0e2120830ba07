// Standalone mount for `rspack serve` (the product itself loads ./App through the shell).
import '@kaboodle/kit/theme.css';
import { mountStandalone } from '@kaboodle/kit';
import App from './app.tsx';

mountStandalone(App);
