/** The address msw/node requests come from unless a panel is given another: they never touch a socket. */
export const IN_PROCESS_CLIENT_IP = '127.0.0.1';
