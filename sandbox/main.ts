// `npm run sandbox`: runs the sandbox Data API on its own (also Playwright's webServer). Reads the
// SANDBOX_* variables, prints the base URL and the demo keys, and stops cleanly on SIGINT/SIGTERM.
import { loadSandboxConfig } from "./config";
import { KEY_INFO } from "./keys";
import { startSandbox } from "./server";

async function main() {
  let config;
  try {
    config = loadSandboxConfig(process.env);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  const started = Date.now();
  const sandbox = await startSandbox(config);
  console.log(`Sandbox Data API listening: ${sandbox.baseUrl} (${config.visitors} visitors, seed ${config.seed}, ready in ${Date.now() - started} ms)`);
  console.log("Demo keys (test data only):");
  for (const k of Object.values(KEY_INFO)) console.log(`  ${k.kind.padEnd(8)} ${k.key}  ${k.description}`);
  if (Object.keys(config.faults).length) console.log(`Faults active: ${JSON.stringify(config.faults)}`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`Sandbox stopping (${signal})`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
