/** Whether a process runs, for clean-up that must leave a live process's files alone. */

/** True when process `pid` exists (EPERM: it exists but is another user's). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
