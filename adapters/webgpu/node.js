// The Node mode of the host: Dawn's Node bindings (npm webgpu) give the
// runtime navigator.gpu, and an offscreen canvas stands in for the
// browser's, its "webgpu" context rendering to a texture.
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

import { NoAdapterError, Session, openDevice } from "./core.js";
import { DEFAULT_FIXTURE_BUDGET } from "./serve.js";

// The size of a canvas a page has not sized: the HTML default, which is
// also what the Chromium mode's page has, so both modes render alike.
const CANVAS_WIDTH = 300;
const CANVAS_HEIGHT = 150;

// nodeBackend loads the runtime and opens Dawn's adapter and device at
// open(); onLost is called when the device is lost.
export function nodeBackend(runtimePath, opts, onLost, loadDawn = defaultDawn) {
  return {
    async open() {
      const dawn = await loadDawn();
      Object.assign(globalThis, dawn.globals);
      const gpu = dawn.create([]);
      installBrowserGlobals(gpu);
      const runtime = await import(pathToFileURL(runtimePath).href);
      const canvas = new OffscreenCanvas(CANVAS_WIDTH, CANVAS_HEIGHT);
      let env;
      try {
        env = await openDevice(runtime, gpu, canvas);
      } catch (err) {
        if (err instanceof NoAdapterError) {
          throw new NoAdapterError(await noAdapterAdvice(dawn, err.message));
        }
        throw err;
      }
      env.device.lost.then((info) => {
        if (info?.reason !== "destroyed") {
          onLost(`${info?.reason ?? "unknown"}: ${info?.message ?? ""}`);
        }
      });
      const session = new Session(runtime, env, { strict: opts.strict, budget: (opts.fixtureBudget ?? DEFAULT_FIXTURE_BUDGET) * 1048576 });
      session.platform = `node ${process.versions.node}, dawn (npm webgpu ${dawn.version})`;
      return session;
    },
    async close() {},
  };
}

async function defaultDawn() {
  const mod = await import("webgpu");
  const require = createRequire(import.meta.url);
  const { version } = require("webgpu/package.json");
  return { create: mod.create, globals: mod.globals, version };
}

// installBrowserGlobals gives the runtime the two browser globals it reads:
// navigator.gpu and window.devicePixelRatio.
function installBrowserGlobals(gpu) {
  const nav = Object.create(globalThis.navigator ?? null);
  Object.defineProperty(nav, "gpu", { value: gpu });
  Object.defineProperty(globalThis, "navigator", { value: nav, configurable: true, writable: true });
  globalThis.window = globalThis.window ?? { devicePixelRatio: 1 };
}

// OffscreenCanvas is the part of an HTML canvas the runtime uses: its size
// (drawing buffer and CSS box alike, at a device pixel ratio of 1) and a
// "webgpu" context.
export class OffscreenCanvas {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.clientWidth = width;
    this.clientHeight = height;
    this.context = new OffscreenContext(this);
  }

  getContext(kind) {
    return kind === "webgpu" ? this.context : null;
  }
}

// OffscreenContext renders to a texture of the canvas's size, as a
// browser's canvas context does, and hands the same texture out until the
// frame ends (the host ends it with each fixture; the texture, made on the
// fixture's device, is destroyed with the fixture's other objects).
export class OffscreenContext {
  constructor(canvas) {
    this.canvas = canvas;
    this.config = null;
    this.texture = null;
  }

  configure(config) {
    this.config = config;
    this.texture = null;
  }

  unconfigure() {
    this.config = null;
    this.texture = null;
  }

  getConfiguration() {
    return this.config;
  }

  getCurrentTexture() {
    if (this.config === null) {
      throw new Error("getCurrentTexture: the canvas context is not configured");
    }
    const { width, height } = this.canvas;
    if (this.texture === null || this.texture.width !== width || this.texture.height !== height) {
      this.texture = this.config.device.createTexture({
        label: "canvas",
        size: [width, height],
        format: this.config.format,
        // A browser's default: the canvas is a render target.
        usage: this.config.usage ?? globalThis.GPUTextureUsage.RENDER_ATTACHMENT,
      });
    }
    return this.texture;
  }

  endFrame() {
    this.texture = null;
  }
}

// noAdapterAdvice explains a missing adapter: which backends Dawn was asked
// for, which Vulkan drivers the loader can see, and how to get one.
async function noAdapterAdvice(dawn, first) {
  const tried = ["default (Vulkan on Linux)"];
  for (const backend of ["opengles", "opengl"]) {
    let found = false;
    try {
      found = (await dawn.create([`backend=${backend}`]).requestAdapter()) !== null;
    } catch {
      // A backend this build lacks counts as tried.
    }
    tried.push(found ? `${backend} (has an adapter, which the runtime did not get)` : backend);
  }
  const lines = [
    `no WebGPU adapter: ${first}.`,
    `Dawn (npm webgpu ${dawn.version}) tried these backends: ${tried.join(", ")}.`,
    vulkanDrivers(),
    "To get one without a GPU: point VK_ICD_FILENAMES at SwiftShader's ICD (Debian's chromium package installs " +
      "/usr/lib/chromium/vk_swiftshader_icd.json, from chromium-common), or install a Mesa lavapipe recent enough: Debian 12's Mesa 22.3 " +
      "lacks the shaderUniform/ArrayDynamicIndexing features Dawn needs; Mesa 25.0 (bookworm-backports) has them. " +
      "Dawn's own warnings, above on stderr, say why each driver was refused.",
  ];
  return lines.join(" ");
}

// vulkanDrivers says which Vulkan ICDs the loader would read.
function vulkanDrivers() {
  const env = process.env.VK_ICD_FILENAMES ?? process.env.VK_DRIVER_FILES;
  if (env) {
    const missing = env.split(":").filter((p) => p !== "" && !existsSync(p));
    return `Vulkan drivers: VK_ICD_FILENAMES=${env}` + (missing.length > 0 ? ` (missing: ${missing.join(", ")}).` : ".");
  }
  const found = [];
  for (const dir of ["/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/usr/share/vulkan/icd.d"]) {
    try {
      for (const f of readdirSync(dir).sort()) {
        found.push(`${dir}/${f}`);
      }
    } catch {
      // No such folder.
    }
  }
  if (found.length === 0) {
    return "Vulkan drivers: VK_ICD_FILENAMES is not set and no ICD file is installed.";
  }
  return `Vulkan drivers: VK_ICD_FILENAMES is not set; the loader found ${found.join(", ")}.`;
}
