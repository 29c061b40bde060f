/**
 * The line a person reads when the panel cannot start. A port that cannot be bound says what to pass instead; node's
 * own words (`listen EADDRINUSE: address already in use 127.0.0.1:3999`) name the cause but not the way out.
 */
export function startFailureMessage(error: unknown): string {
  const { code, port } = error as NodeJS.ErrnoException & { port?: number };
  if (code === 'EADDRINUSE') return `port ${port} is in use: pass --port 0 for a free one, or another port`;
  if (code === 'EACCES') {
    return `port ${port} needs privileges this user does not have: pass --port 0 for a free one, or a port above 1023`;
  }
  return error instanceof Error ? error.message : String(error);
}
