// The HTTP tests read every answer whole and at once, over loopback: gzip only costs the server
// under test its compression (about 7 CPU-s of a suite's run) and this process the inflating.
// So the tests' fetch asks for answers as they are, unless a test sets accept-encoding itself.
const PLAIN = Symbol.for("crewdeck.tests.identity-encoding");

type Fetch = typeof fetch & { [PLAIN]?: true };

const current: Fetch = globalThis.fetch;
if (!current[PLAIN]) {
  const plain: Fetch = (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    if (!headers.has("accept-encoding")) headers.set("accept-encoding", "identity");
    return current(input, { ...init, headers });
  };
  plain[PLAIN] = true;
  globalThis.fetch = plain;
}
