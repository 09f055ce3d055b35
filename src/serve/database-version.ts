import { fileIdentity } from '../store/file-identity.js';
import { currentGeneration } from '../store/generations.js';
import { type HandbookDatabase, openDatabase } from '../store/open-database.js';

/**
 * Tells when the handbook database changed, whoever changed it: SQLite's data_version moves
 * whenever another connection commits, so one connection kept open that never writes sees every
 * sync (the in-process watcher's or a `handbook watch` elsewhere) and every build. A database
 * deleted and built again is another file, told apart by its inode.
 */
export class DatabaseVersion {
  private probe: HandbookDatabase | undefined;
  private identity: string | undefined;
  /** A database was opened here once: a file missing since was deleted, not never built. */
  private seen = false;

  constructor(readonly file: string) {}

  /** A token that differs after any change; undefined while there is no database. */
  token(): string | undefined {
    const probe = this.connection();
    return probe && `${this.identity}:${String(probe.pragma('data_version', { simple: true }))}`;
  }

  /** The current generation's number; 0 while none is complete. */
  generation(): number {
    const probe = this.connection();
    return (probe && currentGeneration(probe)?.id) ?? 0;
  }

  /** Whether the database this server read is gone, and none has been built in its place yet. */
  deleted(): boolean {
    return this.seen && fileIdentity(this.file) === undefined;
  }

  close(): void {
    this.probe?.close();
    this.probe = undefined;
    this.identity = undefined;
  }

  private connection(): HandbookDatabase | undefined {
    const identity = fileIdentity(this.file);
    if (identity !== this.identity) {
      this.close();
      if (identity === undefined) return undefined;
      this.probe = openDatabase(this.file, 'read');
      this.identity = identity;
      this.seen = true;
    }
    return this.probe;
  }
}
