// The host process as the harness runs it, against what a hostile fixture
// can do to it: hold ever more memory, create huge buffers, hang until the
// harness kills it. These tests start Dawn on SwiftShader (Debian's
// chromium package's Vulkan driver) and Chromium; each is skipped where its
// driver or browser is missing.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { descendants } from "../supervise.js";

const here = dirname(fileURLToPath(import.meta.url));
const hostJs = join(here, "..", "host.js");
const fakeRuntime = join(here, "fake-runtime.js");
const icd = "/usr/lib/chromium/vk_swiftshader_icd.json";
const chromium = "/usr/bin/chromium";
const datoviz = join(here, "..", "..", "..", "..", "shared", "drp2-webgpu", "webgpu.js");

const fixture = (seq, commands) => ({ type: "fixture", seq, name: `f${seq}`, version: { major: 2, minor: 0 }, commands });
const handshake = [
  { cmd: "HelloRenderer", version: { major: 2, minor: 0 }, client_name: "c" },
  { cmd: "RendererHelloReply", version: { major: 2, minor: 0 }, status: "ok", renderer_name: "r" },
];

// start runs the host as the harness does: in a process group of its own,
// requests on stdin, answers on stdout. ask sends one request and waits at
// most ms for the answer.
function start(args, env = {}) {
  const child = spawn(process.execPath, [hostJs, ...args], {
    stdio: ["pipe", "pipe", "pipe"], detached: true, env: { ...process.env, VK_ICD_FILENAMES: icd, ...env },
  });
  let stderr = "";
  child.stderr.on("data", (d) => { stderr += d; });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    exited,
    stderr: () => stderr,
    async ask(msg, ms) {
      child.stdin.write(JSON.stringify(msg) + "\n");
      if (msg.type === "goodbye") {
        return null;
      }
      let timer;
      const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms; stderr:\n${stderr}`)), ms); });
      try {
        const r = await Promise.race([answers.next(), late]);
        assert.ok(!r.done, `the host exited; stderr:\n${stderr}`);
        return JSON.parse(r.value);
      } finally {
        clearTimeout(timer);
      }
    },
    // killGroup is the harness after a timeout: SIGKILL to the process group.
    killGroup() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    },
  };
}

test("under Node the host is one process, and its hello asks the harness to hold it to --memory-limit (memory_limit, in bytes)",
  { skip: !existsSync(icd) && `no ${icd}` }, async () => {
    const h = start(["--runtime", fakeRuntime, "--memory-limit", "400"]);
    try {
      const hello = await h.ask({ type: "hello", protocol: 2 }, 60000);
      assert.equal(hello.error, undefined, hello.error + "\n" + h.stderr());
      assert.equal(hello.memory_limit, 400 * 1024 * 1024);
      assert.deepEqual(descendants(h.child.pid), [h.child.pid], "no second process");
      const v = await h.ask(fixture(1, [{ cmd: "Alloc" }]), 60000);
      assert.deepEqual(v, { type: "verdict", seq: 1, outcome: "success" });
      await h.ask({ type: "goodbye" });
      assert.deepEqual(await h.exited, { code: 0, signal: null });
    } finally {
      h.killGroup();
    }
  });

test("Chromium mode: a fixture that holds ever more memory in the page fails with DRP2_ERR_OOM at --memory-limit, and the next fixture gets a fresh browser",
  { skip: (!existsSync(icd) && `no ${icd}`) || (!existsSync(chromium) && `no ${chromium}`) }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), "drp2-tmp-"));
    const h = start(["--runtime", fakeRuntime, "--browser", "chromium", "--chromium", chromium, "--memory-limit", "1024"], { TMPDIR: tmp });
    try {
      const hello = await h.ask({ type: "hello", protocol: 2 }, 90000);
      assert.equal(hello.error, undefined, hello.error + "\n" + h.stderr());
      assert.equal(hello.memory_limit, undefined, "the outer process watches, not the harness");
      const t0 = Date.now();
      const v = await h.ask(fixture(1, [{ cmd: "Grow", mib: 4096 }]), 60000);
      const elapsed = Date.now() - t0;
      assert.deepEqual([v.type, v.seq, v.outcome, v.code], ["verdict", 1, "error", "DRP2_ERR_OOM"]);
      assert.match(v.message, /^the host stopped the implementation: while it ran this fixture, its processes used \d+ MiB, over the host's limit of 1024 MiB \(--memory-limit\)$/);
      process.stderr.write(`# the memory limit stopped the fixture after ${elapsed} ms\n`);
      const next = await h.ask(fixture(2, [{ cmd: "Alloc" }]), 90000);
      assert.deepEqual(next, { type: "verdict", seq: 2, outcome: "success" });
      await h.ask({ type: "goodbye" });
      await h.exited;
    } finally {
      h.killGroup();
      await waitGone(tmp);
      rmSync(tmp, { recursive: true, force: true });
    }
  });

test("datoviz's runtime, a fixture of huge buffers: the budget fails it with DRP2_ERR_OOM before the device allocates them",
  { skip: (!existsSync(icd) && `no ${icd}`) || (!existsSync(datoviz) && `no ${datoviz}`) }, async () => {
    const h = start(["--runtime", datoviz, "--fixture-budget", "64"]);
    try {
      const hello = await h.ask({ type: "hello", protocol: 2 }, 60000);
      assert.equal(hello.error, undefined, hello.error + "\n" + h.stderr());
      const huge = Array.from({ length: 60 }, (_, i) => ({ cmd: "CreateBuffer", id: 100 + i, size: 256 << 20, usage: ["STORAGE", "COPY_DST"] }));
      const t0 = Date.now();
      const v = await h.ask(fixture(1, [...handshake, ...huge]), 30000);
      process.stderr.write(`# the budget failed the fixture after ${Date.now() - t0} ms\n`);
      assert.deepEqual([v.outcome, v.code], ["error", "DRP2_ERR_OOM"]);
      assert.match(v.message, /refused a buffer of 268435456 bytes/);
      const next = await h.ask(fixture(2, [...handshake, { cmd: "CreateBuffer", id: 1, size: 16, usage: ["STORAGE"] }]), 30000);
      assert.deepEqual(next, { type: "verdict", seq: 2, outcome: "success" });
    } finally {
      h.killGroup();
    }
  });

test("Chromium mode: a fixture that hangs until the harness kills the host's group leaves no profile in TMPDIR and no browser",
  { skip: !existsSync(chromium) && `no ${chromium}` }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), "drp2-tmp-"));
    const h = start(["--runtime", fakeRuntime, "--browser", "chromium", "--chromium", chromium], { TMPDIR: tmp });
    try {
      const hello = await h.ask({ type: "hello", protocol: 2 }, 90000);
      assert.equal(hello.error, undefined, hello.error + "\n" + h.stderr());
      assert.notDeepEqual(readdirSync(tmp), [], "Chromium's profile is in TMPDIR while it runs");
      await assert.rejects(h.ask(fixture(1, [{ cmd: "Hang" }]), 1000), /no answer within/);
      h.killGroup();
      await h.exited;
      const deadline = Date.now() + 15000;
      while ((readdirSync(tmp).length > 0 || browsersUsing(tmp).length > 0) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.deepEqual(readdirSync(tmp), [], "left in TMPDIR");
      assert.deepEqual(browsersUsing(tmp), [], "processes still running with a profile in TMPDIR");
    } finally {
      h.killGroup();
      for (const pid of browsersUsing(tmp)) {
        process.kill(pid, "SIGKILL");
      }
      rmSync(tmp, { recursive: true, force: true });
    }
  });

// waitGone waits (15 s at most) for the browsers using a profile in dir
// to end, and kills those left.
async function waitGone(dir) {
  for (const deadline = Date.now() + 15000; browsersUsing(dir).length > 0 && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const pid of browsersUsing(dir)) {
    process.kill(pid, "SIGKILL");
  }
}

// browsersUsing lists the processes whose command line names dir.
function browsersUsing(dir) {
  const pids = [];
  for (const name of readdirSync("/proc")) {
    if (/^\d+$/.test(name)) {
      try {
        if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(dir)) {
          pids.push(Number(name));
        }
      } catch {
        // Gone.
      }
    }
  }
  return pids;
}
