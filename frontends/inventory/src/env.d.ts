// Build-time globals.
declare module '*.css';
