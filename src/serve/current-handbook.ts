import { openHandbook, type Handbook } from '../api/open-handbook.js';
import { HandbookError } from '../errors.js';
import type { DatabaseVersion } from './database-version.js';

/** Reads of the handbook that a stream of commits may keep interrupting before one is taken as it is. */
const MAX_REREADS = 3;

/**
 * The handbook as the database holds it now, read once per change: reading a large graph back
 * costs far more than the pragma that says nothing changed.
 */
export class CurrentHandbook {
  private cached: { token: string; handbook: Handbook } | undefined;

  constructor(
    private readonly root: string,
    private readonly database: string | undefined,
    private readonly version: DatabaseVersion,
  ) {}

  read(): Handbook {
    for (let reads = 1; ; reads += 1) {
      const token = this.version.token();
      if (token === undefined) {
        this.cached = undefined;
        throw new HandbookError('NO_HANDBOOK', `no handbook database at ${this.version.file}`, 'run `handbook build` first');
      }
      if (this.cached?.token === token) return this.cached.handbook;
      const handbook = openHandbook(this.root, { ...(this.database ? { database: this.database } : {}), withUnresolved: false });
      // The handbook is read table by table; a sync committing in between would mix two states, so such a read is done again.
      if (this.version.token() === token || reads >= MAX_REREADS) {
        this.cached = { token, handbook };
        return handbook;
      }
    }
  }
}
