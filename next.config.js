// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // The seed serves health at `{base_url}/` as well as `{base_url}`: answer both, never redirect.
  skipTrailingSlashRedirect: true,
  // Native/WASM database drivers load files relative to themselves: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
