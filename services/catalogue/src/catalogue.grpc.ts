// kaboodle.catalogue.v1.CatalogueService on the platform gRPC kit (split mode): the search service
// rebuilds its index from ListForIndex and looks single entities up. Same reader as in-process callers.
import { implementGrpcService } from '@kaboodle/platform';
import type { GrpcServiceRegistration } from '@kaboodle/platform';
import { CatalogueService } from '@kaboodle/proto';
import type { CatalogueReader } from './catalogue-reader.ts';

export function createCatalogueGrpcService(reader: CatalogueReader): GrpcServiceRegistration {
  return implementGrpcService(
    CatalogueService,
    {
      listForIndex: (request, ctx) => reader.listForIndex(request, ctx.signal),
      getDocument: (request) => reader.getDocument(request),
      getInventoryItem: (request) => reader.getInventoryItem(request),
    },
    // Only the search service reads the catalogue over gRPC (index rebuilds); checked per call (mTLS).
    { ListForIndex: ['search'], GetDocument: ['search'], GetInventoryItem: ['search'] },
  );
}
