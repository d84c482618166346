// Tests of the host that need no GPU driver: a fake runtime module and a
// fake Dawn stand in for the real ones.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { NoAdapterError, PHASES, Session, bufferBytes, errorVerdict, foldReadbacks, helloAnswer, textureBytes } from "../core.js";
import { fakeDawn, fakeDevice } from "./fake-dawn.js";
import { nodeBackend } from "../node.js";
import { helloName, parseArgs, serve } from "../serve.js";

const here = dirname(fileURLToPath(import.meta.url));
const fakeRuntime = join(here, "fake-runtime.js");

const fixture = (seq, commands) => ({ type: "fixture", seq, name: `f${seq}`, version: { major: 2, minor: 0 }, commands });

test("readbacks fold into one QueueSubmitReply per submission, in order", () => {
  const flat = [
    { submission_id: 10, buffer_id: 1, offset: 0, size: 4, data: "AAAAAA==", summary: {} },
    { submission_id: 10, buffer_id: 2, offset: 4, size: 4, data: "AQEBAQ==", summary: {} },
    { submission_id: 11, buffer_id: 1, offset: 0, size: 4, data: "AgICAg==", summary: {} },
  ];
  assert.deepEqual(foldReadbacks(flat), [
    { cmd: "QueueSubmitReply", submission_id: 10, readbacks: [
      { buffer_id: 1, offset: 0, size: 4, data: "AAAAAA==" }, { buffer_id: 2, offset: 4, size: 4, data: "AQEBAQ==" }] },
    { cmd: "QueueSubmitReply", submission_id: 11, readbacks: [{ buffer_id: 1, offset: 0, size: 4, data: "AgICAg==" }] },
  ]);
  assert.deepEqual(foldReadbacks([]), []);
});

test("a Drp2WebGpuError is a verdict with its code and command, and no phase", async () => {
  const runtime = await import(fakeRuntime);
  const v = errorVerdict(new runtime.Drp2WebGpuError(3, { cmd: "SetPipeline" }, "DRP2_ERR_INVALID_STATE", "no pass"), runtime);
  assert.deepEqual(v, { outcome: "error", code: "DRP2_ERR_INVALID_STATE", command_index: 3, message: "command 3 SetPipeline: no pass" });
  assert.equal("phase" in v, false);
});

test("an error scope's error keeps Dawn's text and blames no command", () => {
  const v = errorVerdict(new Error("validation: [Texture \"x\"] is invalid.\n - While calling [Queue].Submit"), {});
  assert.deepEqual(v, { outcome: "error", code: "DRP2_ERR_INTERNAL", message: "validation: [Texture \"x\"] is invalid.\n - While calling [Queue].Submit" });
  assert.equal(errorVerdict(new Error("internal: x\nout-of-memory: Allocation failed"), {}).code, "DRP2_ERR_OOM");
  assert.equal(errorVerdict(new TypeError("x is undefined"), {}).message, "TypeError: x is undefined");
});

test("each fixture runs with a fresh state and leaves no GPU object behind, whatever happens", async () => {
  const runtime = await import(fakeRuntime);
  const device = fakeDevice();
  const env = { device, context: null, format: "bgra8unorm", capabilities: { max_bind_groups: 4 }, canvas: {} };
  const s = new Session(runtime, env);
  let v = await s.run(fixture(1, [{ cmd: "Alloc" }, { cmd: "Alloc" }, { cmd: "QueueSubmit", submission_id: 5, readbacks: [{ buffer_id: 1, offset: 0, size: 8 }] }]));
  assert.equal(v.outcome, "success");
  assert.deepEqual(v.replies, [{ cmd: "QueueSubmitReply", submission_id: 5, readbacks: [{ buffer_id: 1, offset: 0, size: 8, data: "KioqKioqKio=" }] }]);
  assert.equal(device.destroyed, 2);
  v = await s.run(fixture(2, [{ cmd: "Alloc" }, { cmd: "Bad" }]));
  assert.deepEqual([v.outcome, v.code, v.command_index], ["error", "DRP2_ERR_INVALID_ID", 1]);
  assert.equal(device.destroyed, 3, "the buffer of a failing fixture is destroyed too");
  v = await s.run(fixture(3, [{ cmd: "Scope" }]));
  assert.deepEqual([v.code, v.command_index], ["DRP2_ERR_INTERNAL", undefined]);
  // A success without readbacks carries no replies.
  assert.deepEqual(await s.run(fixture(4, [])), { outcome: "success" });
  // The options: the run's capabilities, and no stricter checks by default.
  const last = runtime.seen.at(-1).options;
  assert.deepEqual(last.capabilities, { max_bind_groups: 4 });
  assert.equal(last.requireExplicitBindGroupLayouts, undefined);
  await new Session(runtime, { ...env, device: fakeDevice() }, { strict: true }).run(fixture(5, []));
  assert.equal(runtime.seen.at(-1).options.requireExplicitBindGroupLayouts, true);
  assert.equal(runtime.seen.at(-1).options.requireExplicitPipelineMetadata, true);
});

test("the Node mode gives the runtime navigator.gpu, window and a canvas that renders offscreen", async () => {
  const device = fakeDevice();
  const backend = nodeBackend(fakeRuntime, { strict: false }, () => assert.fail("lost"), fakeDawn(device));
  const session = await backend.open();
  assert.deepEqual(session.env.adapter, { vendor: "acme", architecture: "paper", driver: "Acme driver 1.2" });
  assert.equal(session.env.capabilities.scale, 1);
  assert.match(session.platform, /dawn \(npm webgpu 0\.0\.0-test\)/);
  const v = await session.run(fixture(1, [{ cmd: "Canvas" }]));
  assert.equal(v.outcome, "success");
  assert.equal(device.created, 1);
  assert.equal(device.destroyed, 1, "the canvas texture of a fixture is destroyed with it");
  await session.run(fixture(2, [{ cmd: "Canvas" }]));
  assert.equal(device.created, 2, "the next fixture gets a new canvas texture");
});

test("a lost device is reported, so that the host exits and the harness restarts it; destroying it is not", async () => {
  for (const [reason, wantLost] of [["unknown", true], ["destroyed", false]]) {
    const device = fakeDevice();
    let lose;
    device.lost = new Promise((resolve) => { lose = resolve; });
    const lost = [];
    await nodeBackend(fakeRuntime, {}, (why) => lost.push(why), fakeDawn(device)).open();
    lose({ reason, message: "the GPU process went away" });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(lost, wantLost ? ["unknown: the GPU process went away"] : []);
  }
});

test("no adapter is one clear refusal in hello, naming what was tried", async () => {
  const backend = nodeBackend(fakeRuntime, { strict: false }, () => {}, fakeDawn(null));
  await assert.rejects(backend.open(), (err) => {
    assert.ok(err instanceof NoAdapterError);
    assert.match(err.message, /no WebGPU adapter/);
    assert.match(err.message, /tried these backends: default \(Vulkan on Linux\), opengles, opengl/);
    assert.match(err.message, /VK_ICD_FILENAMES/);
    assert.match(err.message, /Mesa 22\.3/);
    return true;
  });
});

test("serve answers hello with protocol 2, the phases and the adapter, then verdicts in turn", async () => {
  const out = [];
  const session = {
    env: { adapter: { vendor: "acme" }, capabilities: { max_bind_groups: 4 } },
    platform: "test",
    run: async (f) => ({ outcome: "success", seen: f.seq }),
  };
  const lines = [JSON.stringify({ type: "hello", protocol: 2 }), "", JSON.stringify(fixture(1, [])), JSON.stringify({ type: "goodbye" }), "never read"];
  const code = await serve(lines, (m) => out.push(m), { open: async () => session }, { runtime: "webgpu.js", mode: "node", version: "sha256:x" });
  assert.equal(code, 0);
  assert.deepEqual(out[0], { type: "hello", protocol: 2, name: "webgpu.js/node/acme", version: "sha256:x", drp2_versions: ["2.0"],
    executes: true, phases: PHASES, adapter: { vendor: "acme", platform: "test" }, capabilities: { max_bind_groups: 4 } });
  assert.deepEqual(out[1], { type: "verdict", seq: 1, outcome: "success", seen: 1 });
  assert.equal(out.length, 2);
  assert.equal(helloName({ runtime: "my runtime#2@x.js", mode: "node" }, { architecture: "gen 12\t\"a\"" }), "my_runtime_2_x.js/node/gen_12__a_");
  assert.equal(helloName({ name: "lab #2 @ home", runtime: "webgpu.js", mode: "node" }, {}), "lab #2 @ home");
  assert.deepEqual(helloAnswer({ name: "n", env: { adapter: {} } }).phases, ["semantic_validation", "capability_validation"]);
  assert.equal(helloAnswer({ name: "n", env: { adapter: {} }, memoryLimit: 400 << 20 }).memory_limit, 400 << 20);
  assert.equal("memory_limit" in helloAnswer({ name: "n", env: { adapter: {} }, memoryLimit: 0 }), false);
});

test("serve refuses the session in hello when there is no adapter", async () => {
  const out = [];
  const backend = { open: async () => { throw new NoAdapterError("no WebGPU adapter: tried vulkan"); } };
  const code = await serve([JSON.stringify({ type: "hello", protocol: 2 }), JSON.stringify(fixture(1, []))], (m) => out.push(m), backend, { runtime: "webgpu.js", mode: "node" });
  assert.equal(code, 1);
  assert.deepEqual(out, [{ type: "hello", protocol: 2, name: "webgpu.js/node", error: "no WebGPU adapter: tried vulkan" }]);
});

test("serve refuses what is not the protocol", async () => {
  const backend = { open: async () => ({ env: { adapter: {} }, run: async () => ({}) }) };
  await assert.rejects(serve([JSON.stringify(fixture(1, []))], () => {}, backend, {}), /before hello/);
  await assert.rejects(serve(["{not json"], () => {}, backend, {}), /not a protocol message/);
  await assert.rejects(serve([JSON.stringify({ type: "verdict" })], () => {}, backend, {}), /unexpected message type/);
});

test("the command line", () => {
  assert.deepEqual(parseArgs(["--runtime", "x.js", "--browser", "chromium", "--strict-positive"]),
    { browser: "chromium", chromium: "/usr/bin/chromium", strict: true, name: "", runtime: "x.js",
      memoryLimit: 2048, fixtureBudget: 256, child: false, profile: "" });
  assert.equal(parseArgs(["--runtime", "x.js", "--memory-limit", "300", "--fixture-budget", "64"]).memoryLimit, 300);
  assert.throws(() => parseArgs(["--runtime", "x.js", "--memory-limit", "0"]), /whole number of MiB/);
  assert.throws(() => parseArgs(["--runtime", "x.js", "--fixture-budget", "1e9"]), /whole number of MiB/);
  assert.throws(() => parseArgs([]), /--runtime PATH is required/);
  assert.throws(() => parseArgs(["--runtime", "x.js", "--browser", "firefox"]), /only "chromium"/);
  assert.throws(() => parseArgs(["--runtime"]), /needs a value/);
  assert.throws(() => parseArgs(["--runtime", "x", "--gpu"]), /unknown argument/);
});

test("a runtime path that names no file is refused with where it was looked for", () => {
  const r = spawnSync(process.execPath, [join(here, "..", "host.js"), "--runtime", "web/drp2/webgpu.js"],
    { cwd: here, input: "", encoding: "utf8", timeout: 30000 });
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^--runtime web\/drp2\/webgpu\.js: no such file: .*test\/web\/drp2\/webgpu\.js \(a relative path is taken from the working directory, .*test, not from the host's folder\)\n$/);
});

test("the host process, with Dawn finding no driver, refuses in hello and exits 1", () => {
  const env = { ...process.env, VK_ICD_FILENAMES: "/nonexistent/icd.json", VK_DRIVER_FILES: "" };
  const r = spawnSync(process.execPath, [join(here, "..", "host.js"), "--runtime", fakeRuntime],
    { input: JSON.stringify({ type: "hello", protocol: 2 }) + "\n", env, encoding: "utf8", timeout: 30000 });
  assert.equal(r.status, 1, r.stderr);
  const hello = JSON.parse(r.stdout.trim().split("\n")[0]);
  assert.equal(hello.protocol, 2);
  assert.match(hello.error, /no WebGPU adapter/);
  assert.match(hello.error, /VK_ICD_FILENAMES=\/nonexistent\/icd\.json \(missing: \/nonexistent\/icd\.json\)/);
});

test("a fixture may create so many bytes: the creation past the budget is refused and the fixture fails with DRP2_ERR_OOM", async () => {
  const runtime = await import(fakeRuntime);
  const device = fakeDevice();
  const s = new Session(runtime, { device, context: null, format: "bgra8unorm", capabilities: {}, canvas: {} }, { budget: 512 << 20 });
  const huge = Array.from({ length: 60 }, () => ({ cmd: "Buffer", size: 256 << 20 }));
  const v = await s.run(fixture(1, huge));
  assert.equal(v.outcome, "error");
  assert.equal(v.code, "DRP2_ERR_OOM");
  assert.equal(v.command_index, undefined);
  assert.match(v.message, /refused a buffer of 268435456 bytes: .* would hold 805306368 bytes, over the host's budget of 536870912 bytes per fixture \(--fixture-budget\)/);
  assert.deepEqual([device.created, device.destroyed], [2, 2], "the third buffer never reached the device; the two before it are destroyed");
  // The budget is per fixture, and a refusal the runtime swallows still fails the fixture.
  assert.deepEqual(await s.run(fixture(2, [{ cmd: "Buffer", size: 256 << 20 }, { cmd: "Buffer", size: 256 << 20 }])), { outcome: "success" });
  const swallowing = { executeDrp2StreamChecked: async (dev) => {
    try {
      dev.createBuffer({ size: 2 << 20, usage: 8 });
    } catch {
      // A runtime that goes on.
    }
    return { readbacks: [] };
  } };
  const v2 = await new Session(swallowing, { device: fakeDevice(), canvas: {} }, { budget: 1 << 20 }).run(fixture(3, []));
  assert.equal(v2.code, "DRP2_ERR_OOM");
  // A creation the device's limits refuse allocates nothing and is left to WebGPU.
  assert.equal(bufferBytes({ size: 2 ** 40 }, device.limits), 0);
  assert.equal(textureBytes({ size: [8192, 8192], format: "rgba32float" }, device.limits), 8192 * 8192 * 16);
  assert.equal(textureBytes({ size: { width: 64, height: 64 }, format: "rgba8unorm", mipLevelCount: 3, sampleCount: 1 }), (64 * 64 + 32 * 32 + 16 * 16) * 4);
  assert.equal(textureBytes({ size: [16384, 16384], format: "rgba8unorm" }, device.limits), 0);
  assert.equal(textureBytes({ size: [8, 8, 8], format: "depth24plus-stencil8", dimension: "3d" }, device.limits), 8 * 8 * 8 * 8);
  assert.equal(textureBytes({ size: [4, 4], format: "some-future-format" }), 4 * 4 * 16);
});
