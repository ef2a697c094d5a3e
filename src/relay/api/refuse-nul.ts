import { invalidRequest } from '../../contract/errors';
import { NUL_REFUSED, nulPath } from '../data/stored-text';

/** 422 naming the first field of a request body that holds NUL, before any of it reaches the database. */
export function refuseNul(body: unknown): void {
  const path = nulPath(body, 'body');
  if (path !== undefined) throw invalidRequest(`${path.replace(/^body\./, '')}: ${NUL_REFUSED}`);
}
