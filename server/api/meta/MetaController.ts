import { Controller, Get, Route, Tags } from '@tsoa/runtime';
import { openApiDocument, type OpenApiDocument } from '../../openapi/document';

@Route('api/v1')
@Tags('Public')
export class MetaController extends Controller {
  /** Public. The OpenAPI 3.1 description of every route; answers once the server is ready. */
  @Get('openapi.json')
  public async openapi(): Promise<OpenApiDocument> {
    return openApiDocument;
  }
}
