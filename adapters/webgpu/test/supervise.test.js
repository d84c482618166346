// The outer process of the host, with a stand-in for the host proper: a
// small Node program that answers the protocol, holds memory on request or
// exits. No GPU is needed.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { test } from "node:test";

import { descendants, killTree, nextCheck, supervise } from "../supervise.js";

const stand_in = `
const rl = require("node:readline").createInterface({ input: process.stdin });
const held = [];
const out = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
rl.on("line", async (line) => {
  const m = JSON.parse(line);
  if (m.type === "hello") return out({ type: "hello", protocol: 2, name: "stand-in " + process.pid });
  if (m.type === "goodbye") return process.exit(0);
  const cmd = m.commands[0]?.cmd;
  if (cmd === "Exit") process.exit(3);
  if (cmd === "Grow") for (;;) { held.push(Buffer.alloc(16 << 20, 1)); await new Promise((r) => setTimeout(r, 5)); }
  out({ type: "verdict", seq: m.seq, outcome: "success" });
});`;

function starter() {
  const started = [];
  const start = () => {
    const child = spawn(process.execPath, ["-e", stand_in], { stdio: ["pipe", "pipe", "inherit"] });
    started.push(child.pid);
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    return { child, answers: createInterface({ input: child.stdout })[Symbol.asyncIterator](), exited, profile: "", detached: false };
  };
  return { start, started };
}

const fixture = (seq, cmd) => JSON.stringify({ type: "fixture", seq, name: `f${seq}`, version: { major: 2, minor: 0 }, commands: [{ cmd }] });

test("past the memory limit a fixture fails with DRP2_ERR_OOM and the next one gets a new process, greeted with the harness's hello", async () => {
  const { start, started } = starter();
  const out = [];
  const logs = [];
  const lines = [JSON.stringify({ type: "hello", protocol: 2 }), fixture(1, "Grow"), fixture(2, "Ok"), JSON.stringify({ type: "goodbye" })];
  const t0 = Date.now();
  const code = await supervise(lines, (l) => out.push(JSON.parse(l)), { start, limit: 200 << 20, pollMs: 50, log: (s) => logs.push(s) });
  assert.equal(code, 0);
  assert.equal(out.length, 3);
  assert.equal(out[0].name, `stand-in ${started[0]}`);
  assert.deepEqual([out[1].seq, out[1].outcome, out[1].code], [1, "error", "DRP2_ERR_OOM"]);
  assert.match(out[1].message, /its processes used \d+ MiB, over the host's limit of 200 MiB \(--memory-limit\)/);
  assert.deepEqual(out[2], { type: "verdict", seq: 2, outcome: "success" });
  assert.equal(started.length, 2, "one new process after the limit");
  assert.throws(() => process.kill(started[0], 0), "the first process is gone");
  assert.match(logs[0], /fixture 1 "f1"/);
  process.stderr.write(`# stopped and restarted in ${Date.now() - t0} ms\n`);
});

test("a process that exits without answering makes the outer one exit with its status, as before", async () => {
  const { start } = starter();
  const out = [];
  const code = await supervise([JSON.stringify({ type: "hello", protocol: 2 }), fixture(1, "Exit"), fixture(2, "Ok")],
    (l) => out.push(l), { start, limit: 1 << 30 });
  assert.equal(code, 3);
  assert.equal(out.length, 1);
});

test("the tree is the child and what it started, grandchildren included, and no other process", async () => {
  const child = spawn("sh", ["-c", "sleep 30 & sleep 30 & wait"], { stdio: "ignore" });
  const other = spawn("sleep", ["30"], { stdio: "ignore" });
  try {
    let pids = [];
    for (const deadline = Date.now() + 5000; pids.length < 3 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 20));
      pids = descendants(child.pid);
    }
    assert.equal(pids.length, 3, `want the shell and its two sleeps: ${pids}`);
    assert.equal(pids[0], child.pid);
    assert.ok(!pids.includes(other.pid), "a process this one started outside the tree");
    assert.ok(descendants(process.pid).includes(pids[2]), "a grandchild is found from further up");
  } finally {
    killTree(child.pid);
    other.kill("SIGKILL");
  }
});

test("the memory is measured less often while it stays far below the limit, and every pollMs when it grows or nears it", () => {
  const every = { pollMs: 200, maxPollMs: 1000 };
  const MiB = 1 << 20;
  const limit = 1024 * MiB;
  assert.equal(nextCheck(null, 100 * MiB, 0, limit, every), 200, "the first wait");
  let last = { bytes: 100 * MiB, at: 0, delay: 200 };
  const waits = [];
  for (let i = 0; i < 5; i++) {
    const delay = nextCheck(last, 100 * MiB, last.at + last.delay, limit, every);
    waits.push(delay);
    last = { bytes: 100 * MiB, at: last.at + last.delay, delay };
  }
  assert.deepEqual(waits, [400, 800, 1000, 1000, 1000], "flat and far below: backs off to maxPollMs");
  assert.equal(nextCheck(last, 300 * MiB, last.at + 1000, limit, every), 1000, "growing 200 MiB a second: 1024 MiB is 3.6 s away");
  assert.equal(nextCheck(last, 450 * MiB, last.at + 1000, limit, every), 200, "growing 350 MiB a second: every pollMs");
  assert.equal(nextCheck(last, 110 * MiB, last.at + 1000, limit, every), 1000, "slow growth far below: no sooner");
  assert.equal(nextCheck({ ...last, bytes: 600 * MiB }, 600 * MiB, last.at + 1000, limit, every), 200, "past half the limit: every pollMs");
});
