import type { HttpAnswer } from './panel-exchange';

// nginx's own 404 page, byte for byte: what a reverse proxy answers for a path it does not pass on (a wrong
// `BRIDGE_API_BASE`, a panel being deployed).
const NGINX_NOT_FOUND_PAGE =
  '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n' +
  '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** A reverse proxy's 404 in front of the panel: an HTML page, none of the panel's headers, the panel never asked. */
export const PROXY_NOT_FOUND: HttpAnswer = {
  status: 404,
  headers: [
    ['Server', 'nginx'],
    ['Content-Type', 'text/html'],
  ],
  body: NGINX_NOT_FOUND_PAGE,
  plain: true,
};
