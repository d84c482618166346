// A stand-in for Dawn's Node bindings (npm webgpu) and the device they
// give: the host's tests run its Node mode where no GPU driver exists.

// fakeDevice counts what it creates and destroys.
export function fakeDevice() {
  const device = {
    created: 0,
    destroyed: 0,
    lost: new Promise(() => {}),
    adapterInfo: { vendor: "acme", architecture: "paper", device: "", description: "Acme driver 1.2" },
    limits: { maxBufferSize: 268435456, maxTextureDimension2D: 8192, maxTextureArrayLayers: 256, maxTextureDimension3D: 2048 },
    createBuffer() {
      device.created++;
      return { destroy: () => device.destroyed++ };
    },
    createTexture(desc) {
      device.created++;
      return { width: desc.size[0], height: desc.size[1], destroy: () => device.destroyed++ };
    },
  };
  return device;
}

export function fakeDawn(device) {
  const gpu = {
    requestAdapter: async () => (device ? { requestDevice: async () => device, info: device.adapterInfo } : null),
    getPreferredCanvasFormat: () => "bgra8unorm",
  };
  return async () => ({ create: () => gpu, globals: { GPUTextureUsage: { RENDER_ATTACHMENT: 16 } }, version: "0.0.0-test" });
}
