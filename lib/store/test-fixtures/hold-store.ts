// Another process for the store's lock tests and bench (test-holder.ts starts it): opens the embedded
// store of the directory in argv[2], prints `open <pid> <schema>` (or `error <message>` and exits 3),
// and holds it until killed (SIGTERM closes it first; SIGKILL leaves its lock file behind, as a
// crash would). Run with `node --import tsx`.
import { openStoreDatabase } from "../database";

const dir = process.argv[2];
if (!dir) throw new Error("usage: hold-store.ts <DATA_DIR>");

openStoreDatabase({ dataDir: dir }).then(
  (database) => {
    process.stdout.write(`open ${process.pid} ${database.schema}\n`);
    const hold = setInterval(() => {}, 1 << 30);
    process.once("SIGTERM", () => {
      clearInterval(hold);
      void database.close().then(() => process.exit(0));
    });
  },
  (error: unknown) => {
    process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(3);
  },
);
