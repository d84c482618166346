#!/usr/bin/env node
// drp2-webgpu-host: a DRP2 WebGPU runtime module behind the adapter protocol
// of drp2-fixtures (docs/harness.md). It reads JSON lines on stdin, answers
// on stdout, logs on stderr. Under Node it gives the runtime what a browser
// would, from Dawn's Node bindings; with --browser chromium it runs the
// runtime in a page of headless Chromium instead. Under Node this process
// does the work, and its hello asks the harness to watch its memory
// (memory_limit); with Chromium it watches the memory of the one that does
// the work (supervise.js), which is this program again with --child.
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { USAGE, UsageError, parseArgs, runtimeVersion, serve } from "./serve.js";
import { childStarter, supervise } from "./supervise.js";

const MiB = 1024 * 1024;

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
  // The lines are read from when the interface is made: it is made where
  // they are consumed at once, after any await, so that none is lost.
  const input = () => createInterface({ input: process.stdin, crlfDelay: Infinity });
  const write = (msg) => process.stdout.write((typeof msg === "string" ? msg : JSON.stringify(msg)) + "\n");
  let code;
  if (opts.child) {
    code = await child(opts, input, write, 0);
  } else if (opts.browser !== "chromium") {
    // The harness holds this process to the limit (its hello's
    // memory_limit): a watcher of its own would need a thread (a runaway
    // allocation keeps the main one busy) or a second Node process (to
    // answer for this one once it is killed), and either costs more than
    // 5% of the Node host's run of the real corpus.
    code = await child(opts, input, write, opts.memoryLimit * MiB);
  } else {
    // Chromium's processes outlive a kill of this one's group (the
    // harness's after a timeout), and its profile with them: an outer
    // process watches the child, which, in a group of its own, sees its
    // input close and removes them.
    const argv = process.argv.slice(2);
    const start = childStarter(fileURLToPath(import.meta.url), argv, { limit: opts.memoryLimit * MiB, chromium: true });
    code = await supervise(input(), write, { start, limit: opts.memoryLimit * MiB });
  }
  // Exit once stdout has drained, so the last answer is not lost.
  process.stdout.write("", () => process.exit(code));
}

// child is the host proper: it opens the device at hello and runs each
// fixture. memoryLimit, when not 0, is the memory_limit its hello sets.
async function child(opts, input, write, memoryLimit) {
  const runtimePath = resolve(opts.runtime);
  const meta = {
    name: opts.name,
    runtime: basename(runtimePath),
    mode: opts.browser || "node",
    version: runtimeVersion(runtimePath),
    memoryLimit,
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
  const lines = input();
  // Nobody reads an answer once the outer process is gone: this process
  // then cleans up instead of dying of EPIPE.
  process.stdout.on("error", () => {});
  // The input closes under a fixture still running when the outer process
  // is gone (killed with its process group after a timeout): two seconds
  // later Chromium is killed and its folder removed, whatever the page is
  // doing. (Closing at goodbye or at the end of input is done by then.)
  lines.once("close", () => {
    setTimeout(() => {
      opened.kill?.();
      process.exit(1);
    }, 2000).unref();
  });
  try {
    return await serve(lines, write, opened, meta);
  } finally {
    await opened.close();
  }
}

main().catch((err) => {
  process.stderr.write(`drp2-webgpu-host: ${err?.stack ?? err}\n`);
  process.exit(1);
});
