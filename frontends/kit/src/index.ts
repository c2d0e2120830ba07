// @kaboodle/kit: the theme, shared components and the one typed API client of every Kaboodle front end.
// The theme's CSS is imported by each app's entry: import '@kaboodle/kit/theme.css'.
export {
  api,
  createApiClient,
  readCookie,
  AUTH_ERROR_EVENT,
  API_TIMEOUT_MS,
  CSRF_COOKIE,
  STORAGE_KEYS,
} from './api/api-client.ts';
export type {
  ApiClient,
  ApiClientEnv,
  RequestOptions,
  UploadOptions,
  UploadRequest,
} from './api/api-client.ts';
export { ApiError, API_MESSAGES, isApiError, messageForStatus } from './api/api-error.ts';
// The API's types and the values its document carries, generated from the OpenAPI document
// (npm run generate:api; never edited by hand).
export type { components, operations, paths } from './api/kaboodle-api.gen.ts';
export { DOCUMENT_FIELDS, FILE_RULES } from './api/kaboodle-api.gen.ts';
export type { ApiBody, ApiQuery, ApiReply, ApiSchema, OperationId } from './api/api-types.ts';
export type { ApiErrorKind } from './api/api-error.ts';
export {
  createApiCache,
  ttlForNamespace,
  CACHE_PREFIX,
  DEFAULT_TTL_MS,
  NAMESPACE_TTL_MS,
} from './api/api-cache.ts';
export type { ApiCache, CacheEntry, KeyValueStorage } from './api/api-cache.ts';
export { asSessionUser, clearAuth, readStoredUser, saveAuth } from './api/auth-storage.ts';
export type { SessionUser } from './api/auth-storage.ts';
export { Button } from './components/button.tsx';
export type { ButtonProps } from './components/button.tsx';
export { Banner } from './components/banner.tsx';
export type { BannerProps } from './components/banner.tsx';
export { Dialog, focusableWithin } from './components/dialog.tsx';
export type { DialogProps } from './components/dialog.tsx';
export { Progress } from './components/progress.tsx';
export type { ProgressProps } from './components/progress.tsx';
export { Table, compareValues, nextSort } from './components/table.tsx';
export type { TableColumn, TableProps, SortState } from './components/table.tsx';
export { FeaturePreview } from './components/feature-preview.tsx';
export { PhotoPicker, photoProblem } from './components/photo-picker.tsx';
export type { PhotoPickerProps } from './components/photo-picker.tsx';
export { FilePreview } from './preview/file-preview.tsx';
export { SampleBadge } from './components/sample-badge.tsx';
export type { FilePreviewProps } from './preview/file-preview.tsx';
export type { FeaturePreviewProps } from './components/feature-preview.tsx';
export { displayNameOf } from './remote-app.ts';
export type { RemoteAppProps } from './remote-app.ts';
export { mountStandalone } from './mount-standalone.tsx';
export { useKeyedValue } from './hooks/use-keyed-value.ts';

// Kaboodle's hand-drawn art (frontends/kit/src/art, owned with the pages): Tick, gears, pendulum, frames...
export * from './art/index.ts';
export { createListClient, listClient, parseTotalCount } from './api/api-list.ts';
export type { ListClient, ListPage, ListRequest } from './api/api-list.ts';
export { AddToKaboodle, AddToKaboodleButton } from './kaboodles/add-to-kaboodle.tsx';
export type { AddToKaboodleButtonProps, AddToKaboodleProps } from './kaboodles/add-to-kaboodle.tsx';
export type { AddedToKaboodle } from './kaboodles/add-to-kaboodle-dialog.tsx';
export { useSelection } from './kaboodles/use-selection.ts';
export type { Selection } from './kaboodles/use-selection.ts';
export { kaboodlesApi, kaboodleErrorText, countLabel } from './kaboodles/kaboodles-api.ts';
export type {
  EntityType,
  ExportFormat,
  Kaboodle,
  KaboodleCover,
  KaboodleMember,
  KaboodleSummary,
  MemberRef,
  SmartSearch,
} from './kaboodles/kaboodles-api.ts';
export { insightsApi, entityLink } from './insights/insights-api.ts';
export type {
  Diagnostics,
  DuplicatePair,
  InsightEntity,
  Insights,
  LibraryCounts,
  Recommendation,
  RelatedHit,
  Trends,
  TrendSeries,
} from './insights/insights-api.ts';
export { TrendsPanel } from './insights/trends-panel.tsx';
export { Recommendations, RelatedItems } from './insights/recommendations.tsx';
