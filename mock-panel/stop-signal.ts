const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Resolves on the first SIGINT or SIGTERM. Call it before printing anything: a supervisor (or a test) that stops the
 * process as soon as it reads a line must not meet node's default action, which exits 143 without closing anything.
 *
 * The listeners stay for the life of the process. Ctrl+C under `npm run` sends SIGINT twice: the terminal signals
 * the whole process group, and npm forwards its own copy. Without a listener the second one would kill the process
 * while it closes. A stop already under way finishes; further signals are ignored.
 */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) process.on(signal, () => resolve());
  });
}
