import { Body, Controller, Get, Post, Query, Route } from '@tsoa/runtime';

// A controller for apply-bounds.test.ts (outside the controller globs): what tsoa makes of it
// shows how a rule reaches the document, the routes' validation and the renderer's rules.

export interface FixtureBody {
  title: string;
  /** @maxLength 5 */
  note?: string;
}

@Route('fixture')
export class FixtureController extends Controller {
  @Post()
  public async createFixture(@Body() body: FixtureBody): Promise<string> {
    return body.title;
  }

  /** @isInt limit must be an integer */
  @Get()
  public async listFixtures(@Query() limit = 10): Promise<number> {
    return limit;
  }
}
