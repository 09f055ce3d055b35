/**
 * Runs a job for bursts of notifications: once `quietMs` pass without a new one, never two runs
 * at once, and once more after a run that notifications arrived during. A burst of file events
 * (a checkout, an editor's save) costs one run, and nothing that changed during a run goes unseen.
 */
export class DebouncedRunner {
  private notices = 0;
  /** A run is owed: notices arrived, or `runNow` asked for one, since the last run started. */
  private owed = false;
  private dueAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly quietMs: number,
    /** Gets how many notices the run covers; reports its own failures, so it never rejects. */
    private readonly job: (notices: number) => Promise<void>,
  ) {}

  notify(): void {
    this.notices += 1;
    this.wake();
  }

  /** Owes a run after the quiet time, as a notice does, without counting as one: for a hint that something may have changed. */
  wake(): void {
    this.request(performance.now() + this.quietMs);
  }

  /** Runs as soon as no run is in progress, without waiting for quiet. */
  runNow(): void {
    this.request(performance.now());
  }

  /** Owes a run after `delayMs`, as a retry does; a notice in the meantime runs sooner. */
  retryIn(delayMs: number): void {
    this.request(performance.now() + delayMs);
  }

  /** Resolves once no run is owed and none is in progress. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops what is owed and waits for the run in progress, so a caller can close what it writes to. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.owed = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    this.wakeIfIdle();
  }

  private request(dueAt: number): void {
    if (this.stopped) return;
    this.owed = true;
    this.dueAt = dueAt;
    this.schedule();
  }

  private schedule(): void {
    // During a run the timer is armed when it ends, so the quiet period still counts from the last notice.
    if (this.running || !this.owed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), Math.max(0, this.dueAt - performance.now()));
  }

  private start(): void {
    this.timer = undefined;
    const notices = this.notices;
    this.notices = 0;
    this.owed = false;
    this.running = this.job(notices).finally(() => {
      this.running = undefined;
      this.schedule();
      this.wakeIfIdle();
    });
  }

  private isIdle(): boolean {
    return !this.running && !this.owed;
  }

  private wakeIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
