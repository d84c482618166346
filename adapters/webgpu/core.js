// The part of the host that runs where the runtime runs: under Node with
// Dawn, or inside a browser page. It knows the runtime's interface (a
// module exporting initWebGPU and executeDrp2StreamChecked, and throwing
// Drp2WebGpuError) and the adapter protocol's verdict shape; it knows
// nothing about processes, pipes or browsers, so the same file serves both
// modes and the unit tests, which give it a fake runtime.

// PROTOCOL is the adapter protocol version the host speaks (docs/harness.md).
export const PROTOCOL = 2;

// PHASES are the DRP2 phases the runtime performs. It has no JSON Schema
// layer: schema-invalid streams are not what it checks, so it does not claim
// schema_validation, and the harness shows schema-negative fixtures as not
// claimed instead of failing them.
export const PHASES = ["semantic_validation", "capability_validation"];

// The three WebGPU error scopes the runtime pushes each report as
// "<scope>: <text>"; out of memory has a DRP2 code of its own, the others
// are the backend failing a stream the runtime accepted.
const OOM_PREFIX = /^out-of-memory: /m;

// openDevice runs the runtime's own initialisation on canvas (one adapter and
// one device for the whole run) and returns what every fixture needs. gpu is
// navigator.gpu, asked for adapter facts only when the device does not carry
// them. A missing adapter is thrown as NoAdapterError.
export async function openDevice(runtime, gpu, canvas) {
  if (!gpu) {
    throw new NoAdapterError("navigator.gpu is missing: this JavaScript environment has no WebGPU");
  }
  let env;
  try {
    env = await runtime.initWebGPU(canvas);
  } catch (err) {
    const text = String(err?.message ?? err);
    if (/adapter/i.test(text)) {
      throw new NoAdapterError(`the runtime's initWebGPU found no adapter: ${text}`);
    }
    throw err;
  }
  let info = env.device.adapterInfo;
  if (!info) {
    const adapter = await gpu.requestAdapter();
    info = adapter?.info;
  }
  return { ...env, canvas, adapter: adapterFacts(info) };
}

// NoAdapterError says that no WebGPU adapter exists here; the host turns it
// into a hello that refuses, with advice, instead of failing every fixture.
export class NoAdapterError extends Error {
  constructor(message) {
    super(message);
    this.name = "NoAdapterError";
  }
}

// adapterFacts keeps the adapter's identity as the protocol's hello carries
// it: vendor, architecture, device and driver (WebGPU calls the driver's own
// words the description).
export function adapterFacts(info) {
  const out = {};
  for (const [member, field] of [["vendor", "vendor"], ["architecture", "architecture"],
    ["device", "device"], ["driver", "description"]]) {
    const v = info?.[field];
    if (typeof v === "string" && v !== "") {
      out[member] = v;
    }
  }
  return out;
}

// Session runs fixtures one at a time on one device, each with a fresh
// runtime state: the runtime makes a new execution state when it is given
// none, and every buffer, texture and query set created during a fixture is
// destroyed when it ends, whatever happened, so that no GPU memory survives
// from one fixture to the next. The bytes a fixture's creations hold are
// summed against budget: the creation that would pass it is refused before
// it reaches the device, and the fixture fails with DRP2_ERR_OOM, whatever
// the runtime made of the refusal.
export class Session {
  constructor(runtime, env, { strict = false, budget = Infinity } = {}) {
    this.runtime = runtime;
    this.env = env;
    this.strict = strict;
    this.live = [];
    this.budget = budget;
    this.charged = 0;
    this.over = null;
    trackCreations(env.device, this);
  }

  // run answers one fixture message of the protocol with a verdict (without
  // type and seq, which the caller adds).
  async run(fixture) {
    const { device, context, format, capabilities, canvas } = this.env;
    const stream = { version: fixture.version, commands: fixture.commands };
    if (fixture.capabilities !== undefined) {
      stream.capabilities = fixture.capabilities;
    }
    const options = { canvas, capabilities };
    // The stricter checks datoviz applies to positive fixtures only: a host
    // cannot know a fixture's class, so they are the user's choice.
    if (this.strict) {
      options.requireExplicitBindGroupLayouts = true;
      options.requireExplicitPipelineMetadata = true;
    }
    this.charged = 0;
    this.over = null;
    let verdict;
    try {
      const { readbacks } = await this.runtime.executeDrp2StreamChecked(device, context, format, stream, options);
      verdict = { outcome: "success" };
      const replies = foldReadbacks(readbacks ?? []);
      if (replies.length > 0) {
        verdict.replies = replies;
      }
    } catch (err) {
      verdict = errorVerdict(err, this.runtime);
    } finally {
      this.release();
    }
    if (this.over !== null) {
      return { outcome: "error", code: "DRP2_ERR_OOM", message: this.over };
    }
    return verdict;
  }

  // charge counts bytes against the budget, or refuses them.
  charge(kind, bytes) {
    if (this.charged + bytes > this.budget) {
      this.over ??= `the host refused a ${kind} of ${bytes} bytes: the fixture's buffers, textures and query sets ` +
        `would hold ${this.charged + bytes} bytes, over the host's budget of ${this.budget} bytes per fixture (--fixture-budget)`;
      throw new Error(`out-of-memory: ${this.over}`);
    }
    this.charged += bytes;
  }

  release() {
    for (const obj of this.live.splice(0)) {
      try {
        obj.destroy();
      } catch {
        // Already destroyed by the runtime, or by a lost device.
      }
    }
    this.env.context?.endFrame?.();
  }
}

// trackCreations makes device remember, in session.live, every object it
// creates that holds GPU memory until destroyed, and charge its bytes to
// the session. Own properties shadow the prototype's methods, so the device
// itself (a platform object the runtime passes back to WebGPU) stays the
// real one.
function trackCreations(device, session) {
  const sizes = { createBuffer: bufferBytes, createTexture: textureBytes, createQuerySet: querySetBytes };
  for (const name of Object.keys(sizes)) {
    const create = device[name];
    if (typeof create !== "function") {
      continue;
    }
    device[name] = function (descriptor) {
      session.charge(name.slice(6).replace("QuerySet", "query set").toLowerCase(), sizes[name](descriptor, device.limits));
      const obj = create.call(device, descriptor);
      session.live.push(obj);
      return obj;
    };
  }
}

// The bytes a creation holds. One the device's limits refuse allocates
// nothing (WebGPU reports it as a validation error) and is not charged;
// anything not understood is charged as 0, for WebGPU to judge.
const num = (v, dflt) => (v === undefined ? dflt : Number(v));

export function bufferBytes(d, limits) {
  const size = num(d?.size, 0);
  if (!Number.isFinite(size) || size < 0 || (limits?.maxBufferSize !== undefined && size > limits.maxBufferSize)) {
    return 0;
  }
  return size;
}

export function textureBytes(d, limits) {
  const s = d?.size ?? {};
  const [w, h, z] = Array.isArray(s) || typeof s[Symbol.iterator] === "function"
    ? [...s].concat([1, 1]).slice(0, 3).map((v) => num(v, 1))
    : [num(s.width, 0), num(s.height, 1), num(s.depthOrArrayLayers, 1)];
  const dim = d?.dimension ?? "2d";
  const maxDim = dim === "3d" ? limits?.maxTextureDimension3D : dim === "1d" ? limits?.maxTextureDimension1D : limits?.maxTextureDimension2D;
  const maxZ = dim === "3d" ? limits?.maxTextureDimension3D : limits?.maxTextureArrayLayers;
  if (![w, h, z].every((v) => Number.isInteger(v) && v > 0) || (maxDim !== undefined && (w > maxDim || h > maxDim)) ||
    (maxZ !== undefined && z > maxZ)) {
    return 0;
  }
  const levels = Math.min(Math.max(1, num(d?.mipLevelCount, 1)), 32);
  let texels = 0;
  for (let l = 0; l < levels; l++) {
    texels += Math.max(1, w >> l) * Math.max(1, h >> l) * (dim === "3d" ? Math.max(1, z >> l) : z);
  }
  return texels * formatBytes(String(d?.format ?? "")) * Math.max(1, num(d?.sampleCount, 1));
}

export function querySetBytes(d) {
  const count = num(d?.count, 0);
  return Number.isFinite(count) && count > 0 ? count * 8 : 0;
}

// formatBytes is the bytes of one texel of a WebGPU texture format, or an
// upper bound of it: 16, the widest, for a format it does not know.
function formatBytes(format) {
  const m = /^(r|rg|rgba|bgra)(8|16|32)/.exec(format);
  if (m) {
    return { r: 1, rg: 2, rgba: 4, bgra: 4 }[m[1]] * Number(m[2]) / 8;
  }
  if (/^(bc|etc2|eac|astc)/.test(format)) {
    return 1; // Block-compressed: at most a byte a texel.
  }
  const fixed = { rgb10a2unorm: 4, rgb10a2uint: 4, rg11b10ufloat: 4, rgb9e5ufloat: 4, stencil8: 1, depth16unorm: 2,
    depth24plus: 4, "depth24plus-stencil8": 8, depth32float: 4, "depth32float-stencil8": 8 };
  return fixed[format] ?? 16;
}

// foldReadbacks turns the runtime's flat readbacks (one entry per readback
// of each QueueSubmit, in order) into QueueSubmitReply messages: one per run
// of entries with the same submission_id, entries in order. The runtime's
// summary of the bytes is its own and is left out.
export function foldReadbacks(readbacks) {
  const replies = [];
  let current = null;
  for (const r of readbacks) {
    if (current === null || current.submission_id !== r.submission_id) {
      current = { cmd: "QueueSubmitReply", submission_id: r.submission_id, readbacks: [] };
      replies.push(current);
    }
    current.readbacks.push({ buffer_id: r.buffer_id, offset: r.offset, size: r.size, data: r.data });
  }
  return replies;
}

// errorVerdict maps what the runtime threw to an error verdict. A
// Drp2WebGpuError carries a DRP2 code and the command to blame; the runtime
// reports no phase, so the verdict has none. Anything else is an error the
// runtime did not classify, an error scope's in particular: the backend's
// text, no command index.
export function errorVerdict(err, runtime) {
  const isDrp2 = (runtime?.Drp2WebGpuError && err instanceof runtime.Drp2WebGpuError) ||
    err?.name === "Drp2WebGpuError";
  if (isDrp2 && typeof err.code === "string" && err.code !== "") {
    const verdict = { outcome: "error", code: err.code, message: String(err.message ?? "") };
    if (Number.isInteger(err.commandIndex) && err.commandIndex >= 0) {
      verdict.command_index = err.commandIndex;
    }
    return verdict;
  }
  const text = String(err?.message ?? err);
  return {
    outcome: "error",
    code: OOM_PREFIX.test(text) ? "DRP2_ERR_OOM" : "DRP2_ERR_INTERNAL",
    message: err?.name && err.name !== "Error" && !text.startsWith(err.name) ? `${err.name}: ${text}` : text,
  };
}

// helloAnswer is the host's answer to the harness's hello.
export function helloAnswer({ name, version, env, platform, memoryLimit }) {
  const adapter = { ...env.adapter };
  if (platform) {
    adapter.platform = platform;
  }
  const hello = {
    type: "hello",
    protocol: PROTOCOL,
    name,
    drp2_versions: ["2.0"],
    executes: true,
    phases: PHASES,
    adapter,
  };
  if (version) {
    hello.version = version;
  }
  if (env.capabilities && typeof env.capabilities === "object") {
    hello.capabilities = env.capabilities;
  }
  if (memoryLimit > 0) {
    // The harness watches the memory of this process and of what it
    // starts, and stops it past this many bytes.
    hello.memory_limit = memoryLimit;
  }
  return hello;
}
