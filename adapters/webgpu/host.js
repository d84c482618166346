#!/usr/bin/env node
// drp2-webgpu-host: a DRP2 WebGPU runtime module behind the adapter protocol
// of drp2-fixtures (docs/harness.md). It reads JSON lines on stdin, answers
// on stdout, logs on stderr. Under Node it gives the runtime what a browser
// would, from Dawn's Node bindings; with --browser chromium it runs the
// runtime in a page of headless Chromium instead.
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { basename, resolve } from "node:path";

import { USAGE, UsageError, parseArgs, runtimeVersion, serve } from "./serve.js";

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write((err.message ? err.message + "\n" : "") + USAGE + "\n");
      process.exit(2);
    }
    throw err;
  }
  const runtimePath = resolve(opts.runtime);
  if (!existsSync(runtimePath)) {
    // The host and the runtime live in two checkouts: say where the path
    // was looked for, since it is not the host's folder.
    process.stderr.write(`--runtime ${opts.runtime}: no such file: ${runtimePath} ` +
      `(a relative path is taken from the working directory, ${process.cwd()}, not from the host's folder)\n`);
    process.exit(2);
  }
  const meta = {
    name: opts.name,
    runtime: basename(runtimePath),
    mode: opts.browser || "node",
    version: runtimeVersion(runtimePath),
  };
  const onLost = (reason) => {
    // The harness restarts a host that exits; a lost device cannot be
    // trusted with the next fixture.
    process.stderr.write(`the WebGPU device was lost (${reason}); exiting so that the harness restarts the host\n`);
    process.exit(3);
  };
  const opened = opts.browser === "chromium"
    ? (await import("./browser.js")).chromiumBackend(runtimePath, opts, onLost)
    : (await import("./node.js")).nodeBackend(runtimePath, opts, onLost);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const write = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
  let code;
  try {
    code = await serve(lines, write, opened, meta);
  } finally {
    await opened.close();
  }
  // Exit once stdout has drained, so the last answer is not lost.
  process.stdout.write("", () => process.exit(code));
}

main().catch((err) => {
  process.stderr.write(`drp2-webgpu-host: ${err?.stack ?? err}\n`);
  process.exit(1);
});
