// The protocol side of the host, apart from its entry point so that the
// tests can drive it with a fake backend.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

import { PROTOCOL, NoAdapterError, helloAnswer } from "./core.js";

// The defaults of --memory-limit and --fixture-budget, in MiB.
export const DEFAULT_MEMORY_LIMIT = 2048;
export const DEFAULT_FIXTURE_BUDGET = 256;

export const USAGE = `usage: drp2-webgpu-host --runtime PATH/webgpu.js [--browser chromium] [--chromium PATH]
                         [--strict-positive] [--name NAME] [--memory-limit MiB] [--fixture-budget MiB]

  --runtime PATH      the DRP2 WebGPU runtime module (ES module exporting initWebGPU and
                      executeDrp2StreamChecked); its folder is its import root
  --browser chromium  run the runtime in headless Chromium instead of under Node with Dawn
  --chromium PATH     the Chromium to drive (default /usr/bin/chromium)
  --strict-positive   pass the runtime its positive-only options (requireExplicitBindGroupLayouts,
                      requireExplicitPipelineMetadata) for every fixture; off by default, since a
                      host cannot know a fixture's class, and a negative fixture then fails at its
                      first command without the metadata instead of with its own error
  --name NAME         the name reported in hello, which reports and expectations entries use
                      (default: the runtime's file name, the mode and the adapter's architecture,
                      such as webgpu.js/node/swiftshader)
  --memory-limit MiB  the memory the host's processes (Chromium's included) may use while a fixture
                      runs (default ${DEFAULT_MEMORY_LIMIT}); past it the fixture fails with DRP2_ERR_OOM and
                      the next one gets a fresh process. Under Node, drp2-fixtures holds the host to it
                      (the hello's memory_limit asks it to); run alone, the Node host is not held
  --fixture-budget MiB  the bytes of buffers, textures and query sets one fixture may create, summed
                      (default ${DEFAULT_FIXTURE_BUDGET}); past it the fixture fails with DRP2_ERR_OOM`;


// parseArgs reads the command line; it throws a usage error for anything
// it does not know.
export function parseArgs(argv) {
  const opts = { browser: "", chromium: "/usr/bin/chromium", strict: false, name: "", runtime: "",
    memoryLimit: DEFAULT_MEMORY_LIMIT, fixtureBudget: DEFAULT_FIXTURE_BUDGET, child: false, profile: "" };
  const mib = (a, v) => {
    if (!/^[1-9][0-9]{0,6}$/.test(v)) {
      throw new UsageError(`${a} ${JSON.stringify(v)}: want a whole number of MiB`);
    }
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) {
        throw new UsageError(`${a} needs a value`);
      }
      return argv[++i];
    };
    switch (a) {
      case "--runtime": opts.runtime = value(); break;
      case "--browser": opts.browser = value(); break;
      case "--chromium": opts.chromium = value(); break;
      case "--name": opts.name = value(); break;
      case "--strict-positive": opts.strict = true; break;
      case "--memory-limit": opts.memoryLimit = mib(a, value()); break;
      case "--fixture-budget": opts.fixtureBudget = mib(a, value()); break;
      // Internal: the host proper, started by the outer process, and the
      // Chromium profile folder it gets from it.
      case "--child": opts.child = true; break;
      case "--profile": opts.profile = value(); break;
      case "-h": case "--help": throw new UsageError("");
      default: throw new UsageError(`unknown argument ${JSON.stringify(a)}`);
    }
  }
  if (opts.runtime === "") {
    throw new UsageError("--runtime PATH is required");
  }
  if (opts.browser !== "" && opts.browser !== "chromium") {
    throw new UsageError(`--browser ${JSON.stringify(opts.browser)}: only "chromium" is supported`);
  }
  return opts;
}

export class UsageError extends Error {}

// runtimeVersion names a runtime build by its content: the runtime has no
// version of its own, and the sha256 of its module tells two builds apart.
export function runtimeVersion(path) {
  return "sha256:" + createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 12);
}

// helloName is --name, else the runtime's file name, the mode and the
// adapter's architecture ("webgpu.js/node/swiftshader"): runs on two
// drivers are two implementations in a merged report, not one. The default
// is one word an expectations entry holds without quotes: what would end
// or split an entry's first field (white space, '#', '@', a quote, a
// backslash, a control character) becomes '_'.
export function helloName(meta, adapter) {
  if (meta.name) {
    return meta.name;
  }
  const arch = adapter?.architecture || adapter?.vendor || adapter?.device;
  return [meta.runtime, meta.mode, arch].filter(Boolean).map((part) => String(part).replace(/[\s#@"\\\p{C}]/gu, "_")).join("/");
}

// serve speaks the protocol over lines until goodbye or the end of input.
// backend opens the device once, at hello, and runs each fixture.
export async function serve(lines, write, backend, meta) {
  let session = null;
  for await (const line of lines) {
    if (line.trim() === "") {
      continue;
    }
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (err) {
      throw new Error(`not a protocol message: ${err.message}`);
    }
    switch (msg?.type) {
      case "hello": {
        if (msg.protocol !== PROTOCOL) {
          // Answered anyway: the harness reports the version mismatch.
          process.stderr.write(`the harness speaks protocol ${msg.protocol}; this host speaks ${PROTOCOL}\n`);
        }
        try {
          session = await backend.open();
        } catch (err) {
          if (!(err instanceof NoAdapterError)) {
            throw err;
          }
          write({ type: "hello", protocol: PROTOCOL, name: helloName(meta, null), error: err.message });
          return 1;
        }
        write(helloAnswer({ name: helloName(meta, session.env.adapter), version: meta.version, env: session.env,
          platform: session.platform, memoryLimit: meta.memoryLimit }));
        break;
      }
      case "fixture": {
        if (session === null) {
          throw new Error("a fixture came before hello");
        }
        const verdict = await session.run(msg);
        write({ type: "verdict", seq: msg.seq, ...verdict });
        break;
      }
      case "goodbye":
        return 0;
      default:
        throw new Error(`unexpected message type ${JSON.stringify(msg?.type)}`);
    }
  }
  return 0;
}

