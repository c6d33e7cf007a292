// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // The seed serves health at `{base_url}/` as well as `{base_url}`: answer both, never redirect.
  skipTrailingSlashRedirect: true,
  // Native/WASM database drivers load files relative to themselves: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "@linear/sdk"],
  poweredByHeader: false,
  // `npm test` type-checks the whole tree (tests included) with `tsc` before it builds; checking
  // again here would only make `npm start`'s first build slower.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
