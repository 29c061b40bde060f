/**
 * The real HTTP server records each request's socket address here; handlers read it back. Keyed by the Request
 * object, so no client-supplied header can claim an address.
 */
const socketAddresses = new WeakMap<Request, string>();

/** The address msw/node requests come from unless a panel is given another: they never touch a socket. */
export const IN_PROCESS_CLIENT_IP = '127.0.0.1';

export function rememberSocketAddress(request: Request, address: string): void {
  socketAddresses.set(request, address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address);
}

export function socketAddressOf(request: Request): string | undefined {
  return socketAddresses.get(request);
}
