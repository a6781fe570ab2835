// The production entry's HTTP server in front of Next (Next's documented custom-server pattern:
// `next({ dev, dir, hostname, port })` and `app.getRequestHandler()` behind a node:http server,
// in the same process). It does what Next's own server cannot do, before Next sees a request:
// - passes the socket's peer address on in PEER_ADDRESS_HEADER, set here and stripped from what the
//   client sent, so sign-in throttling knows the real client (client-address.ts);
// - refuses odd methods early (TRACE, OPTIONS, CONNECT, PUT, WebDAV...: 405) and takes POST and DELETE
//   only where the app accepts them (WRITE_ROUTES);
// - refuses request targets that are not a path (`*`, `http://host/...`: 400), and paths Next would
//   answer with a 500 (bad percent-encoding) or a redirect (dot segments, backslashes): a JSON 400 under
//   /api/, the app's not-found page elsewhere.
// No `server-only`: scripts/run.ts loads this in plain Node, before Next.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { PEER_ADDRESS_HEADER } from "./client-address";

/** Every method the app answers. HEAD is answered by Next wherever GET is. */
const METHODS = new Set(["GET", "HEAD", "POST", "DELETE"]);
/** The only routes that take POST or DELETE: signing in and out, cancelling an export. A new write route is added here. */
const WRITE_ROUTES: Record<string, readonly string[]> = { "/api/session": ["POST", "DELETE"], "/api/export/cancel": ["POST"] };
const READ_ONLY = "GET, HEAD";

export type Refusal = { status: 400 | 404 | 405; code: string; message: string; allow?: string };

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");

/** True for a path Next would mishandle: undecodable, control characters, backslashes, dot segments. */
function isOddPath(path: string): boolean {
  if (path.includes("\\")) return true;
  for (const segment of path.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return true;
    }
    if (decoded === "." || decoded === ".." || /[\u0000-\u001f\u007f\\]/.test(decoded)) return true;
  }
  return false;
}

/** Why a request is refused before Next, or null to pass it on. `dev` leaves Next's own tooling its POSTs. */
export function checkRequest(method: string, target: string, dev = false): Refusal | null {
  const path = target.split(/[?#]/, 1)[0]!;
  if (!METHODS.has(method)) {
    return { status: 405, code: "method_not_allowed", message: `The ${method.slice(0, 20)} method is not supported.`, allow: WRITE_ROUTES[path] ? [READ_ONLY, ...WRITE_ROUTES[path]].join(", ") : READ_ONLY };
  }
  if (!target.startsWith("/")) return { status: 400, code: "invalid_request_target", message: "The request target must be a path on this server." };
  if (isOddPath(path)) {
    return isApi(path)
      ? { status: 400, code: "invalid_path", message: "The path has bad percent-encoding, a dot segment or a backslash." }
      : { status: 404, code: "not_found", message: "There is nothing at this address." };
  }
  if (!dev && method !== "GET" && method !== "HEAD" && !WRITE_ROUTES[path]?.includes(method)) {
    return { status: 405, code: "method_not_allowed", message: `${method} is not supported on ${path.slice(0, 200)}.`, allow: READ_ONLY };
  }
  return null;
}

/** As on the API's own answers (next.config.mjs): nothing in a refusal may be run, framed or cached. */
const REFUSAL_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/**
 * Next's route for the app's not-found page (app/not-found.tsx). A page request with an odd path is
 * handed to Next as a request for it: Next answers 404 with the page, and the proxy adds the security
 * headers and script nonce as on any page (it lets this path through without a session).
 */
export const NOT_FOUND_PATH = "/_not-found";

export type FrontServerOptions = {
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Next's upgrade handler (development: hot reload over WebSocket). */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;
  dev?: boolean;
};

function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal, handle: FrontServerOptions["handle"]): Promise<void> | void {
  const path = (req.url ?? "").split(/[?#]/, 1)[0]!;
  if (refusal.status === 404 && !isApi(path) && (req.method === "GET" || req.method === "HEAD")) {
    req.url = NOT_FOUND_PATH;
    setPeerAddress(req);
    return handle(req, res);
  }
  // The body of a refused request is not read: the connection ends with the answer.
  res.setHeader("Connection", "close");
  for (const [k, v] of Object.entries(REFUSAL_HEADERS)) res.setHeader(k, v);
  res.statusCode = refusal.status;
  if (refusal.allow) res.setHeader("Allow", refusal.allow);
  if (isApi(path)) {
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
  } else {
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(`${refusal.message}\n`);
  }
}

/** Replaces whatever the client sent in PEER_ADDRESS_HEADER with the socket's peer address. */
function setPeerAddress(req: IncomingMessage): void {
  const peer = req.socket.remoteAddress ?? "";
  delete req.headers[PEER_ADDRESS_HEADER];
  for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (req.rawHeaders[i]!.toLowerCase() === PEER_ADDRESS_HEADER) req.rawHeaders.splice(i, 2);
  }
  req.headers[PEER_ADDRESS_HEADER] = peer;
  req.rawHeaders.push(PEER_ADDRESS_HEADER, peer);
}

export function createFrontServer(options: FrontServerOptions): Server {
  const server = createServer((req, res) => {
    const refusal = checkRequest(req.method ?? "", req.url ?? "", options.dev);
    const answered = refusal ? refuse(req, res, refusal, options.handle) : (setPeerAddress(req), options.handle(req, res));
    Promise.resolve(answered).catch((error: unknown) => {
      console.error("[front-server]", error instanceof Error ? `${error.name}: ${error.message}` : "non-error thrown");
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      } else res.destroy();
    });
  });
  // CONNECT never reaches the request listener; without this Node just drops the connection.
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nAllow: ${READ_ONLY}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });
  if (options.upgrade) {
    const upgrade = options.upgrade;
    server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      setPeerAddress(req);
      upgrade(req, socket, head).catch(() => socket.destroy());
    });
  }
  return server;
}
