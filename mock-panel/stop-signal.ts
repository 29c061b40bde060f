/**
 * Resolves on the first SIGINT or SIGTERM. Call it before printing anything: a supervisor (or a test) that stops the
 * process as soon as it reads a line must not meet node's default action, which exits 143 without closing anything.
 */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
