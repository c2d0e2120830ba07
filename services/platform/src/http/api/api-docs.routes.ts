// GET /api/openapi.json (the OpenAPI 3.1 document of this process's operations, or of every
// service's on the web target) and /api/docs (Swagger UI, from swagger-ui-dist, served from this
// origin so the page's CSP allows only its own scripts).
import { createRequire } from 'node:module';
import path from 'node:path';
import * as z from 'zod';
import { NotFoundError } from '../../errors.ts';
import { createApiRouter } from './api-router.ts';
import type { ApiRouter } from './api-router.ts';
import { defineOperation } from './operation.ts';
import type { OperationSpec } from './operation.ts';
import { buildOpenApiDocument } from './openapi-document.ts';
import type { DocumentInfo, OpenApiDocument } from './openapi-document.ts';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The viewer's files, by the name they are served under. */
const ASSETS = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'swagger-ui-standalone-preset.js': {
    file: 'swagger-ui-standalone-preset.js',
    type: 'text/javascript; charset=utf-8',
  },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
} as const;
type AssetName = keyof typeof ASSETS | 'init.js';

const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    withCredentials: true,
    requestInterceptor: function (req) { req.headers['X-Requested-With'] = 'XMLHttpRequest'; return req; },
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout'
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Kaboodle API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png">
<style>
/* The document declares no response links, so the column only ever says "No links", and on a
   phone it pushed the responses table wider than the screen. */
.swagger-ui .response-col_links { display: none; }
</style>
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/swagger-ui-standalone-preset.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Swagger UI sets inline styles on its elements
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');

export const getOpenApiDocument = defineOperation({
  operationId: 'getOpenApiDocument',
  method: 'get',
  path: '/api/openapi.json',
  service: 'platform',
  security: 'public',
  summary: 'This OpenAPI 3.1 document',
  responses: { 200: { description: 'The document.', json: z.looseObject({ openapi: z.string() }) } },
});

export const getApiDocsPage = defineOperation({
  operationId: 'getApiDocsPage',
  method: 'get',
  path: '/api/docs',
  service: 'platform',
  security: 'public',
  summary: 'The API reference (Swagger UI) for this document',
  responses: { 200: { description: 'An HTML page.', content: { 'text/html': {} } } },
});

export const getApiDocsAsset = defineOperation({
  operationId: 'getApiDocsAsset',
  method: 'get',
  path: '/api/docs/{asset}',
  service: 'platform',
  security: 'public',
  summary: "A file of the API reference's viewer",
  params: z.object({
    asset: z.string().max(64).meta({ description: 'One of the viewer files the page links to.' }),
  }),
  responses: {
    200: {
      description: 'The file.',
      content: { 'text/css': {}, 'text/javascript': {}, 'image/png': {} },
    },
  },
});

export const apiDocsOperations: readonly OperationSpec[] = [
  getOpenApiDocument,
  getApiDocsPage,
  getApiDocsAsset,
];

export interface ApiDocsOptions {
  info: DocumentInfo;
  /** Every operation the document describes (called once, on the first request). */
  operations: () => readonly OperationSpec[];
}

export function createApiDocsRouter(options: ApiDocsOptions): ApiRouter {
  let document: OpenApiDocument | undefined;
  const api = createApiRouter();
  const build = () =>
    (document ??= buildOpenApiDocument([...apiDocsOperations, ...options.operations()], options.info));

  api.handle(getOpenApiDocument, ({ res }) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(build());
  });
  api.handle(getApiDocsPage, ({ res }) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(PAGE);
  });
  api.handle(getApiDocsAsset, ({ params, res }) => {
    const name = params.asset as AssetName;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (name === 'init.js') {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('text/javascript').send(INIT_JS);
      return;
    }
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw new NotFoundError(`No API reference file named ${JSON.stringify(params.asset)}`);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('Content-Type', asset.type);
    res.sendFile(path.join(swaggerDir, asset.file));
  });
  return api;
}
