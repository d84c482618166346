// The host's outer process in the Chromium mode (under Node the harness
// watches the host itself: host.js). It speaks the adapter protocol with
// the harness and runs the host proper (the process that drives Chromium)
// as a child, which it watches: while a fixture runs, the
// memory of the child and everything it started (Chromium's processes
// included) is measured (every 200 ms, less often while it stays flat and
// far below the limit; see watch and nextCheck), and past the limit the
// child is killed, the fixture gets an error verdict that says so, and the
// next fixture starts a new child, as the harness restarts a crashed
// implementation. Whatever else the child does (answer, exit) is passed on
// as it is.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const MiB = 1024 * 1024;

// treeMemory is the memory of pid and its descendants: the sum of their
// resident sets, or with proportional, of their proportional set sizes
// (shared pages counted once across them; slower to read, and no larger),
// where the kernel gives them. It returns the pids too, to kill. With
// deep, the tree may hold other programs (Chromium's processes) that must
// be found even on a kernel that keeps no lists of children.
export function treeMemory(root, { proportional = false, deep = true } = {}) {
  const pids = descendants(root, deep);
  let bytes = 0;
  for (const pid of pids) {
    bytes += processMemory(pid, proportional);
  }
  return { bytes, pids };
}

// The kernel's list of each thread's children (CONFIG_PROC_CHILDREN, on in
// the kernels of Debian, Ubuntu and GitHub's runners).
const childrenLists = existsSync(`/proc/self/task/${process.pid}/children`);

// descendants lists root and the processes below it, read from the
// kernel's lists of each thread's children (/proc/PID/task/TID/children):
// the cost grows with the tree, never with the machine, so that a host on
// a busy runner does not pay for every other process at each fixture.
// Without those lists, the root alone when not deep (the host proper
// under Node starts no process), and otherwise the parents of all of
// /proc, the one other way to find Chromium's processes.
export function descendants(root, deep = true) {
  if (!childrenLists) {
    return deep ? scanDescendants(root) : [root];
  }
  const pids = [];
  for (const queue = [root]; queue.length > 0;) {
    const pid = queue.shift();
    pids.push(pid);
    queue.push(...childrenOf(pid));
  }
  return pids;
}

function scanDescendants(root) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) {
      continue;
    }
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "latin1");
    } catch {
      continue;
    }
    // pid (comm) state ppid ...; comm may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!children.has(ppid)) {
      children.set(ppid, []);
    }
    children.get(ppid).push(Number(name));
  }
  const pids = [];
  for (const queue = [root]; queue.length > 0;) {
    const pid = queue.shift();
    pids.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return pids;
}

function childrenOf(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // Gone.
  }
  const found = [];
  for (const tid of tasks) {
    let list;
    try {
      list = readFileSync(`/proc/${pid}/task/${tid}/children`, "latin1");
    } catch {
      continue; // The thread ended, or the kernel keeps no such list.
    }
    for (const child of list.split(" ")) {
      if (child !== "" && child !== "\n") {
        found.push(Number(child));
      }
    }
  }
  return found;
}

function processMemory(pid, proportional) {
  try {
    if (!proportional) {
      throw new Error("resident set only");
    }
    const m = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "latin1"));
    if (m) {
      return Number(m[1]) * 1024;
    }
  } catch {
    // No smaps_rollup (Linux before 4.14), or the process is gone.
  }
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, "latin1").split(" ")[1]) * 4096;
  } catch {
    return 0;
  }
}

// killTree kills pid and its descendants, each by its id (Chromium's
// processes are in a process group of their own), and waits up to ms for
// them to be gone (dead or a zombie), so that none writes into a folder
// about to be removed. deep is as for treeMemory.
export function killTree(pid, { ms = 3000, deep = true } = {}) {
  let pids = [pid];
  try {
    pids = descendants(pid, deep);
  } catch {
    // No /proc: the child alone.
  }
  for (const p of pids) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + ms; Date.now() < deadline && pids.some(alive);) {
    Atomics.wait(pause, 0, 0, 20);
  }
}

function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}

// removeFolder removes a temporary folder, retrying while something still
// writes into it.
export function removeFolder(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

// supervise runs the protocol on lines (the harness's requests) and write
// (answers), with the host proper started by start() -> {child, lines,
// profile, detached}. limit is in bytes. The memory is measured when a
// fixture starts, then every pollMs, and less often, up to every
// maxPollMs, while it stays far below the limit (see nextCheck).
export async function supervise(lines, write, { start, limit, pollMs = 200, maxPollMs = 5 * pollMs, log = (s) => process.stderr.write(s + "\n") }) {
  let current = null; // {child, answers (async iterator), exited (promise), profile}
  let hello = null; // the harness's hello, sent again to each new child

  const launch = async () => {
    current = start();
    if (hello !== null) {
      current.child.stdin.write(hello + "\n");
      const answer = await next(current);
      if (answer === null) {
        const { code, signal } = await current.exited;
        return `the host could not be started again: it exited (${signal ? `signal ${signal}` : `status ${code}`})`;
      }
      const error = parse(answer)?.error;
      if (error !== undefined) {
        return `the host could not be started again: ${error}`;
      }
    }
    return "";
  };
  const stop = () => {
    if (current !== null) {
      killTree(current.child.pid, { deep: current.detached });
      if (current.profile) {
        removeFolder(current.profile);
      }
      current = null;
    }
  };

  try {
    for await (const line of lines) {
      if (line.trim() === "") {
        continue;
      }
      const msg = parse(line); // null: the child says what is wrong with it
      if (current === null) {
        const err = await launch();
        if (err !== "") {
          log(err);
          return 1;
        }
      }
      if (msg?.type === "hello") {
        hello = line;
      }
      current.child.stdin.write(line + "\n");
      if (msg?.type === "goodbye") {
        const status = await Promise.race([current.exited,
          new Promise((r) => setTimeout(() => r(null), 900).unref())]);
        if (status === null && current.detached) {
          // Chromium closing: the child finishes that, and removes its
          // folder, on its own (within 2 seconds of this process's exit).
          current = null;
        }
        return status === null ? 0 : status.code ?? 1;
      }
      const answer = await watch(current, msg?.type === "fixture" ? limit : Infinity, { pollMs, maxPollMs });
      if (answer.line !== undefined) {
        write(answer.line);
        if (msg?.type === "hello" && parse(answer.line)?.error !== undefined) {
          return (await current.exited).code ?? 1;
        }
        continue;
      }
      if (answer.over !== undefined) {
        const text = `the host stopped the implementation: while it ran this fixture, its processes used ` +
          `${Math.round(answer.over / MiB)} MiB, over the host's limit of ${Math.round(limit / MiB)} MiB (--memory-limit)`;
        log(`${text} (fixture ${msg.seq} ${JSON.stringify(msg.name ?? "")}); a new one runs the next fixture`);
        stop();
        write(JSON.stringify({ type: "verdict", seq: msg.seq, outcome: "error", code: "DRP2_ERR_OOM", message: text }));
        continue;
      }
      // The child exited without answering: so does this process, and the
      // harness reports it as it would the child.
      const status = await current.exited;
      stop();
      return status.code ?? (status.signal ? 128 + (signals[status.signal] ?? 0) : 1);
    }
    if (current !== null) {
      current.child.stdin.end();
      await current.exited;
    }
    return 0;
  } finally {
    stop();
  }
}

function parse(line) {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

const signals = { SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGTERM: 15, SIGTRAP: 5, SIGBUS: 7 };

// next reads the child's next answer line, null when it exits first.
async function next(c) {
  const r = await c.answers.next();
  return r.done ? null : r.value;
}

// watch waits for the child's answer while measuring its memory: {line},
// {over: bytes} past limit, or {} when it exits first. The last measure is
// kept on c across fixtures: a fixture is measured at its start unless
// one was made less than pollMs before, so that a run of short fixtures
// is measured every pollMs, not once each, and any fixture that lasts
// pollMs is measured while it runs, then as nextCheck says.
async function watch(c, limit, every) {
  const answer = next(c);
  if (limit === Infinity) {
    const line = await answer;
    return line === null ? {} : { line };
  }
  let timer;
  let first = true; // the first measure in this fixture
  const over = new Promise((resolve) => {
    const check = () => {
      let bytes = 0;
      // A detached child is the Chromium mode's, whose tree holds
      // Chromium's processes.
      const deep = c.detached;
      try {
        bytes = treeMemory(c.child.pid, { deep }).bytes;
        if (bytes > limit) {
          bytes = treeMemory(c.child.pid, { proportional: true, deep }).bytes;
        }
      } catch {
        return; // No /proc to measure with: this fixture runs unwatched.
      }
      if (bytes > limit) {
        resolve({ over: bytes });
        return;
      }
      const now = performance.now();
      // Each fixture starts at pollMs: the wait a quiet one before it
      // reached is no reason to measure a new one less often.
      const delay = first ? every.pollMs : nextCheck(c.measured, bytes, now, limit, every);
      first = false;
      c.measured = { bytes, at: now, delay };
      timer = setTimeout(check, delay);
    };
    const since = c.measured ? performance.now() - c.measured.at : Infinity;
    if (since >= every.pollMs) {
      check();
    } else {
      timer = setTimeout(check, every.pollMs - since);
    }
  });
  try {
    return await Promise.race([answer.then((line) => (line === null ? {} : { line })), over]);
  } finally {
    clearTimeout(timer);
  }
}

// nextCheck is how long to wait before the next measure: pollMs after the
// first, then, while the memory is below half the limit, twice the last
// wait (up to maxPollMs) as long as the growth seen since the last measure
// would not reach the limit within twice the wait. A fixture that grows
// fast, or is near the limit, is measured every pollMs.
export function nextCheck(last, bytes, now, limit, { pollMs, maxPollMs }) {
  if (last === null || bytes > limit / 2) {
    return pollMs;
  }
  const longer = Math.min(maxPollMs, 2 * last.delay);
  const rate = Math.max(0, bytes - last.bytes) / Math.max(1, now - last.at);
  return bytes + rate * 2 * longer < limit ? longer : pollMs;
}

// childStarter returns start() for supervise: the host proper is this
// program again with --child, its V8 heap capped at the limit. In the
// Chromium mode it gets a fresh profile folder, which supervise removes
// when the child ends, and it runs in a process group of its own, so that
// when the harness kills this one's group after a timeout, the child sees
// its input close and removes Chromium and the profile itself.
export function childStarter(hostPath, argv, { limit, chromium }) {
  return () => {
    const profile = chromium ? mkdtempSync(join(tmpdir(), "drp2-chromium-")) : "";
    const args = [`--max-old-space-size=${Math.max(64, Math.floor(limit / MiB))}`, hostPath, ...argv, "--child"];
    if (profile) {
      args.push("--profile", profile);
    }
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"], detached: chromium });
    child.stdin.on("error", () => {}); // A child that is gone is seen at its exit.
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const answers = createInterface({ input: child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
    return { child, answers, exited, profile, detached: chromium };
  };
}
