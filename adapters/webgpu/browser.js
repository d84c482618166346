// The Chromium mode of the host: the runtime runs in a page of headless
// Chromium, the system's own (puppeteer-core drives it; nothing is
// downloaded). A server on 127.0.0.1 serves the page, the host's core and
// the runtime's folder; each fixture is handed to the page and its verdict
// handed back.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { NoAdapterError } from "./core.js";

const here = dirname(fileURLToPath(import.meta.url));

// chromiumArgs are the flags the browser runs with: WebGPU on (Linux ships
// it behind a flag), and nothing that reaches the network by itself.
export function chromiumArgs(profile) {
  return [
    "--headless=new",
    "--no-sandbox",
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

// page is the document the browser loads: a canvas of the default size
// and a module script that imports the runtime and the host's core.
function page(runtimeFile) {
  return `<!doctype html>
<meta charset="utf-8">
<title>drp2-webgpu-host</title>
<link rel="icon" href="data:,">
<canvas id="canvas"></canvas>
<script type="module">
import * as runtime from "/runtime/${encodeURIComponent(runtimeFile)}";
import { NoAdapterError, Session, openDevice } from "/host/core.js";
const canvas = document.getElementById("canvas");
let session = null;
window.drp2Open = async (strict) => {
  try {
    const env = await openDevice(runtime, navigator.gpu, canvas);
    env.device.lost.then((info) => {
      if (info?.reason !== "destroyed") {
        window.drp2Lost(String(info?.reason ?? "unknown") + ": " + String(info?.message ?? ""));
      }
    });
    session = new Session(runtime, env, { strict });
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

// serveFiles answers the page, /host/core.js and the files of the
// runtime's own folder (one level, JavaScript only) on 127.0.0.1.
function serveFiles(runtimePath) {
  const runtimeDir = dirname(runtimePath);
  const html = page(basename(runtimePath));
  const server = createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    try {
      if (url.pathname === "/") {
        return send(200, "text/html; charset=utf-8", html);
      }
      if (url.pathname === "/host/core.js") {
        return send(200, "text/javascript", readFileSync(join(here, "core.js")));
      }
      const m = /^\/runtime\/([A-Za-z0-9_.-]+\.m?js)$/.exec(url.pathname);
      if (m && !m[1].startsWith(".")) {
        const file = join(runtimeDir, m[1]);
        if (statSync(file).isFile()) {
          return send(200, "text/javascript", readFileSync(file));
        }
      }
    } catch {
      // Not found below.
    }
    send(404, "text/plain", "not found");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

// chromiumBackend starts Chromium and the page at open(); the session it
// returns runs each fixture in the page.
export function chromiumBackend(runtimePath, opts, onLost) {
  let browser = null;
  let server = null;
  let profile = null;
  return {
    async open() {
      const { default: puppeteer } = await import("puppeteer-core");
      server = await serveFiles(runtimePath);
      profile = mkdtempSync(join(tmpdir(), "drp2-webgpu-chromium-"));
      try {
        browser = await puppeteer.launch({
          executablePath: opts.chromium,
          headless: true,
          pipe: true,
          args: chromiumArgs(profile),
          ignoreDefaultArgs: ["--enable-automation"],
        });
      } catch (err) {
        throw new NoAdapterError(`Chromium could not be started from ${opts.chromium}: ${err.message}`);
      }
      browser.on("disconnected", () => onLost("the browser exited"));
      const tab = await browser.newPage();
      tab.on("pageerror", (err) => process.stderr.write(`page error: ${err.message}\n`));
      tab.on("console", (msg) => process.stderr.write(`page ${msg.type()}: ${msg.text()}\n`));
      tab.on("error", (err) => onLost(`the page crashed: ${err.message}`));
      await tab.exposeFunction("drp2Lost", (reason) => onLost(reason));
      const { port } = server.address();
      await tab.goto(`http://127.0.0.1:${port}/`, { waitUntil: "load" });
      await tab.waitForFunction(() => window.drp2Ready === true, { timeout: 20000 });
      const opened = await tab.evaluate((strict) => window.drp2Open(strict), opts.strict);
      const version = await browser.version();
      if (!opened.ok) {
        if (opened.noAdapter) {
          throw new NoAdapterError(`${opened.message.split("\n")[0]}. ${version} (${opts.chromium}) ran with ` +
            `${chromiumArgs("DIR").join(" ")}. Chromium's WebGPU on Linux without a GPU uses its own SwiftShader ` +
            "through Vulkan: check that the package ships libvk_swiftshader.so and vk_swiftshader_icd.json beside " +
            "the binary, and see chrome://gpu in that browser for why WebGPU is off.");
        }
        throw new Error(`the page could not open the runtime's device: ${opened.message}`);
      }
      return {
        env: { adapter: opened.adapter, capabilities: opened.capabilities },
        platform: version.replace("/", " ") + " (headless)",
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
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}
