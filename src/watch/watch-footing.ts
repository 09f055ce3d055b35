import { HandbookError } from '../errors.js';
import { fileIdentity } from '../store/file-identity.js';

/**
 * What a watch stands on: the repository folder it watches and the database file it writes.
 * Either deleted or replaced under a running watch (`rm -rf`, a new database built in its place)
 * leaves the watcher on a folder nobody edits, or its syncs going into an unlinked file nobody
 * reads, so watching cannot honestly go on.
 */
export class WatchFooting {
  private readonly root: string | undefined;
  private readonly database: string | undefined;

  constructor(
    private readonly rootPath: string,
    private readonly databasePath: string,
  ) {
    this.root = fileIdentity(rootPath);
    this.database = fileIdentity(databasePath);
  }

  /** Why watching must stop, or undefined while both are still where the watch found them. */
  lost(): HandbookError | undefined {
    if (fileIdentity(this.rootPath) !== this.root) {
      return new HandbookError('REPO_NOT_FOUND', `the repository ${this.rootPath} was deleted or replaced while it was watched`, 'run `handbook watch` again on the repository where it is now');
    }
    if (fileIdentity(this.databasePath) !== this.database) {
      return new HandbookError('NO_HANDBOOK', `the handbook database ${this.databasePath} was deleted or replaced while it was watched, so syncs could no longer reach it`, 'run `handbook build` if it is gone, then `handbook watch` again');
    }
    return undefined;
  }
}
