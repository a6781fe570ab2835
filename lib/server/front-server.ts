// The production entry's HTTP server in front of Next (Next's documented custom-server pattern:
// `next({ dev, dir, hostname, port })` and `app.getRequestHandler()` behind a node:http server,
// in the same process). It does what Next's own server cannot do, before Next sees a request:
// - passes the socket's peer address on in PEER_ADDRESS_HEADER, set here and stripped from what the
//   client sent, so sign-in throttling knows the real client (client-address.ts);
// - refuses odd methods early (TRACE, OPTIONS, CONNECT, WebDAV...: 405) and takes POST, PUT, PATCH and
//   DELETE only where a route file under app/api exports them (route-files.ts);
// - refuses request targets that are not a path (`*`, `http://host/...`: 400), and paths Next would
//   answer with a 500 (bad percent-encoding) or a redirect (dot segments, backslashes): a JSON 400 under
//   /api/, the app's not-found page elsewhere;
// - refuses request bodies over MAX_BODY_BYTES with 413 (declared, or chunked: a chunked body is
//   passed on only once all of it is in, and it is small), never buffering more than that;
// - closes the connection of a request it refuses while its body is still arriving the way nginx's
//   lingering close does: the body read and thrown away, the answer, then its end (FIN), and the
//   socket closed once the body is all in, or after LINGER_MS or LINGER_MAX_BYTES. Closing at once,
//   with the client's data still arriving, resets the connection, and the client may lose the answer
//   it has not read yet;
// - keeps idle connections open for KEEP_ALIVE_TIMEOUT_MS, longer than a proxy in front keeps its
//   idle upstream connections (deploy/nginx.conf: 60 s), so the proxy never sends a request on a
//   connection this server is closing (a 502 for the user).
// No `server-only`: scripts/run.ts loads this in plain Node, before Next.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { MAX_BODY_BYTES } from "./body-limit";
import { PEER_ADDRESS_HEADER } from "./client-address";
import { writeRouteTable } from "./route-files";

/** Every method the app answers. HEAD is answered by Next wherever GET is. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
/**
 * The paths that take POST, PUT, PATCH or DELETE, and which: read from the route files under app/api
 * (route-files.ts: each file's write methods, `*` for an `[id]` segment), once, when first needed. A
 * path of no route file takes none.
 */
let writeRoutes: { exact: Record<string, readonly string[]>; patterns: { segments: string[]; methods: readonly string[] }[] } | undefined;

function writeRouteTableOnce() {
  if (!writeRoutes) {
    // An e-mail's unsubscribe page takes RFC 8058's one-click POST at its own address (proxy.ts hands it to its route).
    const exact: Record<string, readonly string[]> = { ...writeRouteTable(), "/mail/unsubscribe/*": ["POST"] };
    // Where several patterns match, a static segment beats a dynamic one at the first place they
    // differ, as in Next (/api/shared/*/unlock before /api/shared/*/*).
    const moreSpecific = (a: string[], b: string[]) => {
      for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] === "*") !== (b[i] === "*")) return a[i] === "*" ? 1 : -1;
      return 0;
    };
    const patterns = Object.entries(exact)
      .filter(([pattern]) => pattern.includes("*"))
      .map(([pattern, methods]) => ({ segments: pattern.split("/"), methods }))
      .sort((a, b) => moreSpecific(a.segments, b.segments));
    writeRoutes = { exact, patterns };
  }
  return writeRoutes;
}
const READ_ONLY = "GET, HEAD";

/** The write methods a path takes (empty for a read-only one); an exact path wins over a pattern. */
export function writeMethods(path: string): readonly string[] {
  const { exact, patterns } = writeRouteTableOnce();
  const own = Object.hasOwn(exact, path) ? exact[path] : undefined;
  if (own) return own;
  const parts = path.split("/");
  const match = patterns.find(({ segments }) => segments.length === parts.length && segments.every((s, i) => (s === "*" ? parts[i] !== "" : s === parts[i])));
  return match?.methods ?? [];
}

/**
 * How long an idle kept-alive connection stays open. Above the idle timeout of any proxy in front
 * (nginx's upstream keepalive_timeout, 60 s in deploy/nginx.conf; Node's default of 5 s is below it),
 * so the proxy always closes first; a request it sends on a connection Node has just closed is a 502.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Above KEEP_ALIVE_TIMEOUT_MS: the usual pairing behind a load balancer (Node before 18 let it cut idle kept-alive connections). */
export const HEADERS_TIMEOUT_MS = 66_000;
/** Lingering close: how long, at most, the rest of a refused body is read and thrown away. */
export const LINGER_MS = 5_000;
/** Lingering close: how much of it, at most (a client that has read the answer stops sending long before). */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;

export type Refusal = { status: 400 | 404 | 405 | 413; code: string; message: string; allow?: string };

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
    const writes = writeMethods(path);
    return {
      status: 405,
      code: "method_not_allowed",
      message: `The ${method.slice(0, 20)} method is not supported.`,
      allow: writes.length > 0 ? [READ_ONLY, ...writes].join(", ") : READ_ONLY,
    };
  }
  if (!target.startsWith("/")) return { status: 400, code: "invalid_request_target", message: "The request target must be a path on this server." };
  if (isOddPath(path)) {
    return isApi(path)
      ? { status: 400, code: "invalid_path", message: "The path has bad percent-encoding, a dot segment or a backslash." }
      : { status: 404, code: "not_found", message: "There is nothing at this address." };
  }
  const writes = writeMethods(path);
  if (!dev && method !== "GET" && method !== "HEAD" && !writes.includes(method)) {
    return {
      status: 405,
      code: "method_not_allowed",
      message: `${method} is not supported on ${path.slice(0, 200)}.`,
      allow: [READ_ONLY, ...writes].join(", "),
    };
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

/** A body is coming: a declared length above 0, or chunked. */
const hasBody = (req: IncomingMessage) => Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;

const payloadTooLarge: Refusal = {
  status: 413,
  code: "payload_too_large",
  message: `The request body is larger than ${Math.round(MAX_BODY_BYTES / 1024)} KB.`,
};

/**
 * Closes the connection after the answer to a request whose body is still coming, as nginx's lingering
 * close does: the body is read and dropped from now on; once the answer is written the server's side
 * is closed (FIN), and the socket itself once the whole body is in and the answer flushed (nothing
 * unread is left to reset the connection), or after LINGER_MS, or past LINGER_MAX_BYTES.
 */
function closeLingering(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  const close = () => socket.destroy();
  let bodyEnded = false;
  let flushed = false;
  const closeIfDone = () => {
    if (bodyEnded && flushed) close();
  };
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) close();
  });
  req.once("end", () => {
    bodyEnded = true;
    closeIfDone();
  });
  req.resume();
  res.once("finish", () => {
    // Half-close (the server's sockets allow it): the client sees the answer end while we still read.
    socket.end();
    socket.once("finish", () => {
      flushed = true;
      closeIfDone();
    });
    const timer = setTimeout(close, LINGER_MS);
    socket.once("close", () => clearTimeout(timer));
  });
}

function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal, handle: FrontServerOptions["handle"]): Promise<void> | void {
  const path = (req.url ?? "").split(/[?#]/, 1)[0]!;
  if (refusal.status === 404 && !isApi(path) && (req.method === "GET" || req.method === "HEAD")) {
    req.url = NOT_FOUND_PATH;
    setPeerAddress(req);
    return handle(req, res);
  }
  // The connection ends with the answer. Without a body in the way Node closes it; with one, Node's
  // own close would reset the connection under the client's upload, so the close lingers instead
  // (no `Connection: close`, which makes Node close the socket as soon as the answer is written).
  if (!hasBody(req) || req.complete) res.setHeader("Connection", "close");
  else closeLingering(req, res);
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

/**
 * Waits for a chunked body (one without a declared length) to be all in while staying within `max`:
 * true once it is, false as soon as more than `max` bytes wait unread, null if the client went away.
 * It is not read: the bytes stay in the request's buffer for Next to read as usual.
 */
function chunkedBodyWithin(req: IncomingMessage, max: number): Promise<boolean | null> {
  return new Promise((resolve) => {
    const settle = (result: boolean | null) => {
      req.off("readable", check);
      req.off("close", gone);
      req.off("error", gone);
      resolve(result);
    };
    const gone = () => settle(null);
    function check() {
      if (req.readableLength > max) settle(false);
      else if (req.complete) settle(true);
    }
    req.on("readable", check);
    req.once("close", gone);
    req.once("error", gone);
    check();
  });
}

/** What to do with a request: refuse it, pass it on, or nothing (its client went away). */
async function route(req: IncomingMessage, dev: boolean): Promise<Refusal | "pass" | "gone"> {
  const refusal = checkRequest(req.method ?? "", req.url ?? "", dev);
  if (refusal) return refusal;
  // Next's development tooling posts its own (larger) bodies; the route handlers still bound theirs.
  if (dev) return "pass";
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return payloadTooLarge;
  if (req.headers["transfer-encoding"] !== undefined && req.headers["content-length"] === undefined) {
    const within = await chunkedBodyWithin(req, MAX_BODY_BYTES);
    if (within === null) return "gone";
    if (!within) return payloadTooLarge;
  }
  return "pass";
}

export function createFrontServer(options: FrontServerOptions): Server {
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const answered = route(req, options.dev ?? false).then((decision) => {
      if (decision === "gone") return;
      if (decision !== "pass") return refuse(req, res, decision, options.handle);
      setPeerAddress(req);
      return options.handle(req, res);
    });
    answered.catch((error: unknown) => {
      console.error("[front-server]", error instanceof Error ? `${error.name}: ${error.message}` : "non-error thrown");
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      } else res.destroy();
    });
  };
  const server = createServer(onRequest);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  // `Expect: 100-continue`: a body over the limit is refused before the client sends it.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers["content-length"] ?? 0) <= MAX_BODY_BYTES) res.writeContinue();
    onRequest(req, res);
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
