import type { ModelCache } from '../organize/model-cache.js';
import type { HandbookDatabase } from './open-database.js';

/** Model answers kept across builds in the handbook database; every answer is written as soon as it arrives. */
export class DatabaseModelCache implements ModelCache {
  private readonly select;
  private readonly upsert;

  constructor(database: HandbookDatabase) {
    this.select = database.prepare('SELECT value FROM model_cache WHERE key = ?');
    this.upsert = database.prepare('INSERT INTO model_cache (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  }

  get(key: string): string | undefined {
    return (this.select.get(key) as { value: string } | undefined)?.value;
  }

  set(key: string, value: string): void {
    this.upsert.run(key, value);
  }
}
