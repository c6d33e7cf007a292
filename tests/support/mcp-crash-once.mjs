#!/usr/bin/env node
// A stdio MCP server that crashes once: it runs the real everything server
// (@modelcontextprotocol/server-everything) behind a pipe, and the first time a client calls a
// tool it exits instead of answering (as a server that dies mid-run would). CRASH_MARKER names a
// file that says the crash has happened: later starts pass everything through. Each start is
// appended to `${CRASH_MARKER}.starts`, so a test can count them.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const marker = process.env.CRASH_MARKER;
if (!marker) throw new Error("CRASH_MARKER is not set");
fs.appendFileSync(`${marker}.starts`, `${process.pid}\n`);

const server = path.resolve(
  import.meta.dirname,
  "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
const child = spawn(process.execPath, [server, "stdio"], { stdio: ["pipe", "pipe", "inherit"] });
child.stdout.pipe(process.stdout);
child.on("exit", (code) => process.exit(code ?? 1));

for await (const line of readline.createInterface({ input: process.stdin })) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    message = undefined;
  }
  if (message?.method === "tools/call" && !fs.existsSync(marker)) {
    fs.writeFileSync(marker, "crashed\n");
    child.kill("SIGKILL");
    process.exit(1);
  }
  child.stdin.write(`${line}\n`);
}
child.stdin.end();
