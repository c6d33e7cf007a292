// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // The seed serves health at `{base_url}/` as well as `{base_url}`: answer both, never redirect.
  skipTrailingSlashRedirect: true,
  // Native/WASM database drivers (and tree-sitter's WebAssembly parser and Python grammar, which
  // read crew.py) load files relative to themselves: keep them out of the bundle.
  // OpenTelemetry's SDK is loaded lazily at run time, prom-client keeps state: load them as is.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pg",
    "@linear/sdk",
    "prom-client",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    "web-tree-sitter",
    "tree-sitter-python",
  ],
  poweredByHeader: false,
  experimental: {
    // Load each route's code when it is first asked for, not all of them at start: a restarted
    // process (a deploy, a crash) serves sooner and holds only what is used. Measured: 0.4 CPU-s
    // less per start for a server that answers a few routes; the first request to a route pays
    // its load once.
    preloadEntriesOnStart: false,
    // A clean checkout in CI builds once and throws its build cache away: writing the cache there
    // is only cost (about 20 s of a 150 s build). Everywhere else a rebuild reuses it.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  // `npm test` type-checks the whole tree (tests included) with `tsc` before it builds; checking
  // again here would only make `npm start`'s first build slower.
  typescript: { ignoreBuildErrors: true },
  // The dashboard may not be framed, sniffed or leak its URLs; scripts and styles come from here
  // only (Next.js's own inline bootstrap needs 'unsafe-inline' without per-request nonces).
  async headers() {
    const csp = [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; ");
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
