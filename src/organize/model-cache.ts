/**
 * Model answers kept by content, so a rebuild or a re-sync asks the model only about what
 * changed. Keys name the model, the question and the hashes of what was asked about.
 */
export interface ModelCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export class MemoryModelCache implements ModelCache {
  private readonly entries = new Map<string, string>();

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: string): void {
    this.entries.set(key, value);
  }
}
