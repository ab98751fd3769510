import type { components } from '../generated/openapi-types';

/** A schema of the generated OpenAPI types, for test code: `Schema<'WorkspaceProfile'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
