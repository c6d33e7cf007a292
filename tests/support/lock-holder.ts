// A process that takes the embedded database lock of DATA_DIR (argv[2]) and holds it until it is
// killed: prints `won <pid>` or `refused <pid>: <message>`.
import { acquireEmbeddedLock } from "../../lib/db/embedded-lock";

const dir = process.argv[2] as string;
try {
  await acquireEmbeddedLock(dir, 4321);
  console.log(`won ${process.pid}`);
  setInterval(() => {}, 1 << 30);
} catch (err) {
  console.log(`refused ${process.pid}: ${(err as Error).message}`);
  process.exit(3);
}
