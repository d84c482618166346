// A stand-in for a DRP2 WebGPU runtime module, with the interface of
// datoviz's webgpu.js and none of its GPU work: the host's tests run it
// where no GPU driver exists. Commands it knows:
//   Read   {id}            a readback of 8 bytes of 0x2a for the next QueueSubmit
//   QueueSubmit {submission_id, readbacks}  answers each readback with size bytes
//   Bad    {}              throws a Drp2WebGpuError (DRP2_ERR_INVALID_ID)
//   Scope  {}              throws what an error scope reports
//   Alloc  {}              creates a buffer and leaves it to the host to destroy
//   Buffer {size}          creates a buffer of size bytes
//   Hang   {}              never ends
//   Grow   {mib}           holds mib MiB more of the process's memory, 16 MiB at a time
//   Create* {id}           a second creation of one id by the same command
//                          throws DRP2_ERR_DUPLICATE_ID, as the real runtime does
//                          for a reused id; every other command does nothing
export class Drp2WebGpuError extends Error {
  constructor(commandIndex, command, code, detail) {
    super(`command ${commandIndex} ${command?.cmd ?? "Unknown"}: ${detail}`);
    this.name = "Drp2WebGpuError";
    this.commandIndex = commandIndex;
    this.cmd = command?.cmd ?? null;
    this.code = code;
    this.detail = detail;
  }
}

export const seen = [];
const held = [];

export async function initWebGPU(canvas) {
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) {
    throw new Error("no WebGPU adapter is available");
  }
  const device = await adapter.requestDevice();
  const context = canvas.getContext("webgpu");
  const format = navigator.gpu.getPreferredCanvasFormat();
  context.configure({ device, format, alphaMode: "opaque" });
  const scale = window.devicePixelRatio;
  return { device, context, format, capabilities: { max_bind_groups: 4, scale } };
}

export async function executeDrp2StreamChecked(device, context, format, stream, options = {}) {
  seen.push({ stream, options });
  const readbacks = [];
  const created = new Set();
  for (const [i, c] of stream.commands.entries()) {
    if (typeof c?.cmd === "string" && c.cmd.startsWith("Create") && "id" in c) {
      const key = `${c.cmd} ${c.id}`;
      if (created.has(key)) {
        throw new Drp2WebGpuError(i, c, "DRP2_ERR_DUPLICATE_ID", `id ${c.id} is already live`);
      }
      created.add(key);
    }
    switch (c.cmd) {
      case "Bad":
        throw new Drp2WebGpuError(i, c, "DRP2_ERR_INVALID_ID", "unknown buffer 7");
      case "Scope":
        throw new Error("validation: [Buffer] usage (BufferUsage::MapRead|BufferUsage::Storage) is invalid");
      case "Alloc":
        device.createBuffer({ size: 4, usage: 1 });
        break;
      case "Buffer":
        device.createBuffer({ size: c.size, usage: 8 });
        break;
      case "Hang":
        await new Promise(() => {});
        break;
      case "Grow":
        for (let i = 0; i < c.mib / 16; i++) {
          held.push(new Uint8Array(16 << 20).fill(1));
          await new Promise((r) => setTimeout(r, 5));
        }
        break;
      case "Canvas":
        context.getCurrentTexture();
        break;
      case "QueueSubmit":
        for (const r of c.readbacks ?? []) {
          readbacks.push({ submission_id: c.submission_id, buffer_id: r.buffer_id, offset: r.offset, size: r.size,
            data: Buffer.alloc(r.size, 42).toString("base64"), summary: { bytes: r.size } });
        }
        break;
      default:
    }
  }
  return { readbacks, state: {} };
}
