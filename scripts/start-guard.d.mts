// Types of scripts/start-guard.mjs, which `npm start` runs as plain JavaScript (Node 20 runs no
// TypeScript), for the tests that import it.
export type Holder = { pid: number; started?: string; since: string; port?: string };
export type Verdict =
  | { kind: "serve" }
  | { kind: "build"; note: string }
  | { kind: "refuse"; message: string };

export function buildLockPath(root: string): string;
export function processStart(pid: number): string | undefined;
export function recordServer(root: string, pid: number, port?: string): () => void;
export function liveServers(root: string): Holder[];
export function tryBuildLock(root: string): { release: () => void } | { holder: Holder };
export function holdBuildLock(
  root: string,
  options?: { onWait?: (holder: Holder) => void; pollMs?: number },
): Promise<() => void>;
export function decide(input: {
  built: number;
  newest: number;
  mayBuild: boolean;
  servers: Holder[];
  distDir: string;
}): Verdict;
