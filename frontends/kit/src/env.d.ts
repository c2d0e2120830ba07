// Stylesheets imported by kit components (the apps' bundler handles them).
declare module '*.css';
