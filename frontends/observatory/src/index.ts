// Async boundary: shared singletons (React, the router) are negotiated before any app code runs.
import('./bootstrap.tsx').catch((err: unknown) => console.error('Starting the observatory failed', err));
