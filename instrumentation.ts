// Next's instrumentation hook: `register()` runs once in each server process Next starts to serve
// requests (not in `next build`, whose workers never call it), before the first request. In the
// Node.js runtime it wires the domains and starts the background jobs' scheduler (lib/server/background.ts), which opens
// the store on its first tick and catches up the slots missed while the app was down.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundJobs } = await import("./lib/server/background");
  startBackgroundJobs();
}
