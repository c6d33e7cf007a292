import {
  FIXTURE_CREWS,
  freePort,
  freshPostgresDatabase,
  type Proc,
  startServer,
  startWorkerProcess,
  TEST_CREW_TOKEN,
  tempDir,
} from "./harness";

/**
 * A web server and a worker to kill. Embedded: the worker lives in the web process, so the whole
 * process dies and a new one starts on the same DATA_DIR. PostgreSQL: a separate worker process
 * dies and another one starts; the web server stays up. startWorker may change the environment
 * of the next one.
 */
export async function startTopology(
  mode: "embedded" | "postgres",
  procs: Proc[],
  extraEnv: Record<string, string>,
) {
  const common = {
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    WORKER_LEASE_MS: "1500",
    WORKER_POLL_MS: "100",
    ...extraEnv,
  };
  if (mode === "postgres") {
    const env = {
      ...common,
      DATABASE_URL: (await freshPostgresDatabase()) as string,
      DATA_DIR: tempDir("kill"),
    };
    const web = await startServer({ ...env, RUN_WORKER: "false" });
    let worker = await startWorkerProcess(env);
    procs.push(web, worker);
    return {
      url: () => web.url,
      killWorker: (signal: NodeJS.Signals = "SIGKILL") => worker.kill(signal),
      worker: () => worker,
      startWorker: async (changed: Record<string, string> = {}) => {
        worker = await startWorkerProcess({ ...env, ...changed });
        procs.push(worker);
      },
    };
  }
  const env = { ...common, DATA_DIR: tempDir("kill") };
  let web = await startServer(env);
  procs.push(web);
  return {
    url: () => web.url,
    killWorker: (signal: NodeJS.Signals = "SIGKILL") => web.kill(signal),
    worker: (): Proc => web,
    startWorker: async (changed: Record<string, string> = {}) => {
      web = await startServer({ ...env, ...changed });
      procs.push(web);
    },
  };
}

/**
 * Workers that share the work and may crash. PostgreSQL: a web server and two worker processes;
 * `crash` kills one (the other carries on) and starts it again. Embedded: the one process (web
 * and worker) is killed and started again on the same DATA_DIR and port.
 */
export async function twoWorkers(
  mode: "embedded" | "postgres",
  procs: Proc[],
  env: Record<string, string>,
) {
  if (mode === "postgres") {
    const shared = { ...env, DATABASE_URL: (await freshPostgresDatabase()) as string };
    const web = await startServer({ ...shared, RUN_WORKER: "false" });
    const workers = [await startWorkerProcess(shared), await startWorkerProcess(shared)];
    procs.push(web, ...workers);
    return {
      url: web.url,
      async crash() {
        await workers[0]?.kill("SIGKILL");
        workers[0] = await startWorkerProcess(shared);
        procs.push(workers[0]);
      },
    };
  }
  let web = await startServer({ ...env, PORT: String(await freePort()) });
  procs.push(web);
  const port = web.port;
  return {
    url: web.url,
    async crash() {
      await web.kill("SIGKILL");
      web = await startServer({ ...env, PORT: String(port) });
      procs.push(web);
    },
  };
}
