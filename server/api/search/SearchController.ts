import { Body, Controller, Get, Post, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { SearchResult } from '../../domain/search/search-service';
import type { TagRenameResult, TagSearchResult } from '../../domain/tags/tag-service';
import type { Services } from '../../services';

/** `{ from, to }` of a tag rename. */
export interface TagRenameBody {
  /**
   * The tag to rename: lowercase letters and digits joined by single hyphens, at most 40 characters.
   */
  from: string;
  /**
   * Its new name (same rule); when a row already carries it, the row keeps one (a merge). Must differ from `from`.
   */
  to: string;
}

/** Keyword search over the whole desk, and tags across it. */
@Route('api/v1')
@Tags('Search')
@Security('bearer')
export class SearchController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Keyword search over signals, tasks, outputs (artifacts), memory, task comments, the activity
   * log and sources, best first (SQLite FTS5, bm25: a title match ranks above a tag or label
   * match, which ranks above a match in the body). `q` is taken as words (letters and digits;
   * everything else separates them, case and accents are ignored): every word must match a word of
   * the row, the last one also as the start of a word, so results follow the text as it is typed.
   * Quotes, `-`, `*`, `OR`, `NEAR`, parentheses or colons are plain text, never query syntax; a
   * `q` without any letter or digit finds nothing. Each hit carries its title and a snippet as
   * plain text with the offsets of the matches (`titleMarks`, `snippetMarks`) for the UI to mark,
   * when it happened, and the route of the desk's UI it opens. The index is kept in step with
   * every write, in the same transaction. A ranked answer has no cursor: raise `limit` or refine
   * `q`. When more than 2000 rows match, the best of the 2000 newest matches are answered
   * (`capped: true`; the `kind` filter narrows the matches before that cut). The last word is a
   * prefix from 4 letters on (shorter, a whole word), and a last word that is itself a word of
   * 2000 or more rows is matched as that word.
   * @param q the text searched, 1-200 characters (empty or blank is a 422 naming `q`)
   * @param limit hits answered, 1-50 (default 20)
   * @isInt limit must be an integer
   * @param kind comma list of kinds to search: signal, task, artifact, memory, comment, activity,
   * source (empty means all; an unknown kind is a 422 naming `kind`)
   */
  @Get('search')
  @Response<ErrorBody>('422', 'q, limit or kind is invalid')
  public async search(@Query() q: string, @Query() limit = 20, @Query() kind?: string): Promise<SearchResult> {
    return this.s.search.search({ q, limit, kind });
  }

  /**
   * Tasks, outputs and memory entries (archived ones too) carrying exactly `tag`, newest first,
   * with how many of each kind carry it. Follow `nextCursor` for older rows.
   * @param tag the tag: lowercase letters and digits joined by single hyphens, at most 40 characters (else a 422 naming `tag`)
   * @param limit rows per page, 1-100 (default 25)
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served (anything else is a 422 naming `cursor`)
   */
  @Get('workspace/tag-search')
  @Response<ErrorBody>('422', 'tag, limit or cursor is invalid')
  public async searchTag(@Query() tag: string, @Query() limit = 25, @Query() cursor?: string): Promise<TagSearchResult> {
    return this.s.tags.search({ tag, limit, cursor });
  }

  /**
   * Renames a tag across the workspace: every task, output and memory entry carrying `from` carries
   * `to` instead, and so do the focus tags (a new focus shift starts). A row that already carries
   * `to` keeps it once (the tags merge). One transaction, one activity row (`tag.renamed`) and one
   * `tag.renamed` event with the counts. When nothing carries `from` the answer has `changed:
   * false` and nothing is written. Tags are checked as tasks check theirs (422 naming `from` or
   * `to`); `to` equal to `from` is a 422 naming `to`.
   */
  @Post('workspace/tags/rename')
  @Response<ErrorBody>('422', 'from or to is not a valid tag, or they are equal')
  public async renameTag(@Body() body: TagRenameBody): Promise<TagRenameResult> {
    return this.s.tags.rename(body);
  }
}
