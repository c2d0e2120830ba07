// k6 provides `console` to scripts; @types/k6 does not declare it (it is not the DOM's).
declare const console: {
  log(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
};
