// GET /api/health - liveness for process managers and the test harness; touches no upstream.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}
