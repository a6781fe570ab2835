// The largest request body this app takes: a sign-in's `{"apiKey": "svc_sk_…"}` is a few hundred
// bytes; the largest other body, a note (280 characters of text and 80 of author, at most 4 bytes
// each in UTF-8, as a browser's JSON.stringify writes them), stays under 1.6 KB. The front server refuses anything larger before Next sees
// it (lib/server/front-server.ts); route handlers read bodies with the same bound (request-body.ts),
// which is what holds under plain `next start`.
// No `server-only`: scripts/run.ts loads the front server, and with it this, in plain Node.
export const MAX_BODY_BYTES = 4096;
