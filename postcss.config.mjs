// Tailwind CSS 4 runs as a PostCSS plugin under Next's CSS pipeline.
export default { plugins: { "@tailwindcss/postcss": {} } };
