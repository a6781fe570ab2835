// Another process holding the embedded store of a directory (fixtures/hold-store.ts): the "other
// instance" of the store's lock tests and of the store bench's start without the store. No vitest
// here, so the bench can use it too.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export type StoreHolder = {
  pid: number;
  /** What it printed: `open <pid> <schema>` or `error <message>`. */
  line: string;
  /** SIGTERM closes the store first; SIGKILL leaves its lock file behind, as a crash would. */
  kill(signal?: NodeJS.Signals): Promise<void>;
};

/** Another process opening the embedded store in `dataDir` (fixtures/hold-store.ts). */
export async function startStoreHolder(dataDir: string): Promise<StoreHolder> {
  const file = fileURLToPath(new URL("./fixtures/hold-store.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", file, dataDir], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`the store holder exited (code ${code}) before saying anything: ${out}`)));
  });
  return {
    pid: child.pid!,
    line,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
