import document from '../generated/openapi.json' with { type: 'json' };

export interface OpenApiDocument {
  openapi: string;
  [key: string]: unknown;
}

/** The OpenAPI 3.1 document built by `npm run gen`, bundled with the server. */
export const openApiDocument = document as unknown as OpenApiDocument;
