import type { NextFunction, Request, Response } from 'express';
import type { Mount } from '../../app';
import type { SharePage } from '../../domain/sharing/share-service';
import { NOT_SHARED_PAGE, renderSharedPage } from './share-page';

const PAGES: [string, SharePage][] = [
  ['/share/work-log/:token', 'work_log'],
  ['/share/timeline/:token', 'timeline'],
];

/**
 * The public, read-only share pages of tasks: no bearer token (the unguessable token in the path
 * is the key), GET only, behind the Host guard like every route. An unknown or revoked token is a
 * 404. Each answer is counted as a view (ShareService.openShared). Pages are never cached and send
 * no Referer, so the token does not travel on.
 */
export const sharePagesMount: Mount = (app, services) => {
  for (const [path, page] of PAGES) {
    app.get(path, (req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('X-Robots-Tag', 'noindex');
      services.sharing.openShared(page, req.params.token ?? '').then((shared) => {
        if (shared === null) res.status(404).type('html').send(NOT_SHARED_PAGE);
        else res.status(200).type('html').send(renderSharedPage(shared));
      }, next);
    });
  }
};
