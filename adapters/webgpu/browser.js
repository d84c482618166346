// The Chromium mode of the host: the runtime runs in a page of headless
// Chromium, the system's own (puppeteer-core drives it; nothing is
// downloaded). A server on 127.0.0.1 serves the page, the host's core and
// the runtime's folder; each fixture is handed to the page and its verdict
// handed back.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { NoAdapterError } from "./core.js";
import { DEFAULT_FIXTURE_BUDGET } from "./serve.js";
import { killTree, removeFolder } from "./supervise.js";

const here = dirname(fileURLToPath(import.meta.url));

// PROFILE_PREFIX names the temporary folder of each browser launch.
export const PROFILE_PREFIX = "drp2-chromium-";

// chromiumArgs are the flags the browser runs with: WebGPU on (Linux ships
// it behind a flag), and nothing that reaches the network by itself; the
// sandbox off only when the host cannot have it (see sandboxRefusal).
export function chromiumArgs(profile, sandbox = true) {
  return [
    "--headless=new",
    ...(sandbox ? [] : ["--no-sandbox"]),
    "--enable-unsafe-webgpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
    "--metrics-recording-only",
    `--user-data-dir=${profile}`,
  ];
}

// sandboxRefusal says why Chromium cannot have its sandbox here before
// trying: as root it refuses to start one. Empty: try it.
export function sandboxRefusal(uid = process.getuid?.()) {
  if (uid === 0) {
    return "the host runs as root, and Chromium does not start its sandbox as root (crbug.com/638180); " +
      "run the host as an ordinary user to keep it";
  }
  return "";
}

// namespaceFacts says what may have kept Chromium's sandbox from starting:
// its namespace sandbox needs unprivileged user namespaces, and the
// setuid helper chrome-sandbox is the other way.
function namespaceFacts(chromium) {
  const read = (p) => {
    try {
      return readFileSync(p, "utf8").trim();
    } catch {
      return null;
    }
  };
  const facts = [];
  if (read("/proc/sys/kernel/unprivileged_userns_clone") === "0") {
    facts.push("kernel.unprivileged_userns_clone is 0");
  }
  if (read("/proc/sys/user/max_user_namespaces") === "0") {
    facts.push("user.max_user_namespaces is 0");
  }
  if (read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") === "1") {
    facts.push("AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns is 1)");
  }
  try {
    const helper = statSync(join(dirname(realpathSync(chromium)), "chrome-sandbox"));
    if ((helper.mode & 0o4000) === 0 || helper.uid !== 0) {
      facts.push("chrome-sandbox is there but not setuid root");
    }
  } catch {
    facts.push("there is no chrome-sandbox helper beside the browser");
  }
  return facts.length > 0 ? facts.join("; ") : "no user-namespace restriction was found";
}

// page is the document the browser loads: a canvas of the default size
// and a module script that imports the runtime and the host's core.
function page(runtimeFile) {
  return `<!doctype html>
<meta charset="utf-8">
<title>drp2-webgpu-host</title>
<link rel="icon" href="data:,">
<canvas id="canvas"></canvas>
<script type="module">
import * as runtime from "./runtime/${encodeURIComponent(runtimeFile)}";
import { NoAdapterError, Session, openDevice } from "./host/core.js";
const canvas = document.getElementById("canvas");
let session = null;
window.drp2Open = async (options) => {
  try {
    const env = await openDevice(runtime, navigator.gpu, canvas);
    env.device.lost.then((info) => {
      if (info?.reason !== "destroyed") {
        window.drp2Lost(String(info?.reason ?? "unknown") + ": " + String(info?.message ?? ""));
      }
    });
    session = new Session(runtime, env, options);
    return { ok: true, adapter: env.adapter, capabilities: env.capabilities };
  } catch (err) {
    return { ok: false, noAdapter: err instanceof NoAdapterError, message: String(err?.stack ?? err) };
  }
};
window.drp2Run = (fixture) => session.run(fixture);
window.drp2Ready = true;
</script>
`;
}

// serveFiles answers three things on 127.0.0.1, at an ephemeral port,
// under a random prefix only the host's own page knows: the page, the
// host's core.js, and the regular files named *.js or *.mjs directly in the
// runtime's folder. It follows no symbolic link (the folder is resolved once,
// each of its components is checked to be a directory at every request, and
// the file is opened with O_NOFOLLOW), and answers 403 to a request whose
// Host is not its own address, so that a page of another origin (DNS
// rebinding) cannot read through it, and 404 to any other path. A file
// with more than one name (a hard link, which O_NOFOLLOW does not stop)
// is refused too, and log says so. It resolves to {server, url}: url is
// the page's address.
export function serveFiles(runtimePath, log = (s) => process.stderr.write(s + "\n")) {
  const runtimeDir = realpathSync(dirname(resolve(runtimePath)));
  const components = runtimeDir.split("/").filter((c) => c !== "")
    .map((_, i, all) => "/" + all.slice(0, i + 1).join("/"));
  const secret = randomBytes(24).toString("hex");
  const html = page(basename(runtimePath));
  let origin = "";
  const server = createServer((req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.headers.host !== origin) {
      return send(403, "text/plain", "forbidden");
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return send(405, "text/plain", "method not allowed");
    }
    const prefix = `/${secret}/`;
    const path = (req.url ?? "").split("?")[0];
    if (!path.startsWith(prefix)) {
      return send(404, "text/plain", "not found");
    }
    const rest = path.slice(prefix.length);
    if (rest === "") {
      return send(200, "text/html; charset=utf-8", html);
    }
    if (rest === "host/core.js") {
      return send(200, "text/javascript", readFileSync(join(here, "core.js")));
    }
    const m = /^runtime\/([A-Za-z0-9_-][A-Za-z0-9_.-]*\.m?js)$/.exec(rest);
    const body = m ? readRegular(components, runtimeDir, m[1], log) : null;
    if (body === null) {
      return send(404, "text/plain", "not found");
    }
    send(200, "text/javascript", body);
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      origin = `127.0.0.1:${server.address().port}`;
      resolvePromise({ server, url: `http://${origin}/${secret}/` });
    });
  });
}

// readRegular reads name in dir, a folder that must still be what it was
// (every component a directory, none a link), and name a regular file that
// is no link, symbolic or hard; null otherwise. A hard link's content is
// whatever file of the file system it names, so it is refused, and said.
function readRegular(components, dir, name, log) {
  let fd = -1;
  try {
    for (const c of components) {
      if (!lstatSync(c).isDirectory()) {
        return null;
      }
    }
    fd = openSync(join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) {
      return null;
    }
    if (st.nlink > 1) {
      log(`page server: refused ${JSON.stringify(join(dir, name))}: the file has ${st.nlink} names (hard links), and one of them may be a file outside the runtime's folder; copy the file instead of linking it`);
      return null;
    }
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    if (fd >= 0) {
      closeSync(fd);
    }
  }
}

// chromiumBackend starts Chromium and the page at open(); the session it
// returns runs each fixture in the page. The browser's profile and its
// temporary files are in the folder opts.profile, else a new temporary
// folder; close() and kill() remove it.
export function chromiumBackend(runtimePath, opts, onLost, log = (s) => process.stderr.write(s + "\n")) {
  let browser = null;
  let server = null;
  let profile = null;
  let sandbox = true;
  return {
    async open() {
      const { default: puppeteer } = await import("puppeteer-core");
      const served = await serveFiles(runtimePath, log);
      server = served.server;
      // One folder holds the profile and Chromium's own temporary files
      // (its TMPDIR, where it makes a socket: the names are short, as the
      // socket's path must stay under 108 bytes), so that removing it
      // leaves nothing of the browser.
      profile = opts.profile || mkdtempSync(join(tmpdir(), PROFILE_PREFIX));
      mkdirSync(join(profile, "t"), { recursive: true });
      const launch = () => puppeteer.launch({
        executablePath: opts.chromium,
        headless: true,
        pipe: true,
        env: { ...process.env, TMPDIR: join(profile, "t") },
        args: chromiumArgs(join(profile, "p"), sandbox),
        ignoreDefaultArgs: ["--enable-automation"],
      });
      const refusal = sandboxRefusal();
      if (refusal !== "") {
        sandbox = false;
        log(`Chromium runs without its sandbox (--no-sandbox): ${refusal}`);
      }
      try {
        browser = await launch();
      } catch (err) {
        if (!sandbox) {
          throw new NoAdapterError(`Chromium could not be started from ${opts.chromium}: ${err.message}`);
        }
        sandbox = false;
        log(`Chromium did not start with its sandbox (${String(err.message).split("\n")[0]}); ` +
          `${namespaceFacts(opts.chromium)}; starting it without (--no-sandbox)`);
        try {
          browser = await launch();
        } catch (err2) {
          throw new NoAdapterError(`Chromium could not be started from ${opts.chromium}, with its sandbox or without: ${err2.message}`);
        }
      }
      browser.on("disconnected", () => onLost("the browser exited"));
      const tab = await browser.newPage();
      tab.on("pageerror", (err) => process.stderr.write(`page error: ${err.message}\n`));
      tab.on("console", (msg) => process.stderr.write(`page ${msg.type()}: ${msg.text()}\n`));
      tab.on("error", (err) => onLost(`the page crashed: ${err.message}`));
      await tab.exposeFunction("drp2Lost", (reason) => onLost(reason));
      await tab.goto(served.url, { waitUntil: "load" });
      await tab.waitForFunction(() => window.drp2Ready === true, { timeout: 20000 });
      const opened = await tab.evaluate((o) => window.drp2Open(o), { strict: opts.strict, budget: (opts.fixtureBudget ?? DEFAULT_FIXTURE_BUDGET) * 1048576 });
      const version = await browser.version();
      if (!opened.ok) {
        if (opened.noAdapter) {
          throw new NoAdapterError(`${opened.message.split("\n")[0]}. ${version} (${opts.chromium}) ran with ` +
            `${chromiumArgs("DIR", sandbox).join(" ")}. Chromium's WebGPU on Linux without a GPU uses its own SwiftShader ` +
            "through Vulkan: check that the package ships libvk_swiftshader.so and vk_swiftshader_icd.json beside " +
            "the binary, and see chrome://gpu in that browser for why WebGPU is off.");
        }
        throw new Error(`the page could not open the runtime's device: ${opened.message}`);
      }
      return {
        env: { adapter: opened.adapter, capabilities: opened.capabilities },
        platform: version.replace("/", " ") + " (headless)" + (sandbox ? "" : ", no sandbox"),
        run: (fixture) => tab.evaluate((f) => window.drp2Run(f), fixture),
      };
    },
    async close() {
      if (browser !== null) {
        browser.removeAllListeners("disconnected");
        await browser.close().catch(() => {});
      }
      server?.close();
      if (profile !== null) {
        removeFolder(profile);
      }
    },
    // kill ends the browser at once, whatever it is doing, and removes
    // its profile.
    kill() {
      const pid = browser?.process()?.pid;
      browser?.removeAllListeners("disconnected");
      if (pid) {
        killTree(pid);
      }
      if (profile !== null) {
        removeFolder(profile);
      }
    },
  };
}
