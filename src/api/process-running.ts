/** Whether a process of this machine is alive. Signal 0 tests it without touching it; EPERM means it exists under another user. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
