// The Chromium mode's page server: what it serves, and to whom. No browser
// is started; the requests are made as another local client would make them.
import assert from "node:assert/strict";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { chromiumArgs, sandboxRefusal, serveFiles } from "../browser.js";

const root = mkdtempSync(join(tmpdir(), "drp2-serve-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
const runtimeDir = join(root, "runtime");
mkdirSync(runtimeDir);
writeFileSync(join(runtimeDir, "webgpu.js"), "export const x = 1;\n");
writeFileSync(join(root, "outside-token.txt"), "secret-token-value\n");
symlinkSync(join(root, "outside-token.txt"), join(runtimeDir, "token.js"));
symlinkSync("/etc/hostname", join(runtimeDir, "hostname.js"));
mkdirSync(join(runtimeDir, "dir.js"));
mkdirSync(join(root, "linked"));
writeFileSync(join(root, "linked", "inner.js"), "export const y = 2;\n");
symlinkSync(join(root, "linked"), join(runtimeDir, "sub"));
// A hard link is no symbolic link: it is a second name of the file, and
// O_NOFOLLOW opens it. Made from the runtime's folder by a build step, or
// by whoever can write there, it names a file anywhere on the same file
// system.
linkSync(join(root, "outside-token.txt"), join(runtimeDir, "hard.js"));

// get asks the server for path with the given Host header.
function get(url, path, host) {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers: { host: host ?? u.host } }, (res) => {
      let body = "";
      res.on("data", (d) => { body += d; });
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("the page server serves the page, core.js and the runtime's regular files", async () => {
  const { server, url } = await serveFiles(join(runtimeDir, "webgpu.js"));
  try {
    assert.equal(new URL(url).hostname, "127.0.0.1");
    const base = new URL(url).pathname;
    assert.match(base, /^\/[0-9a-f]{48}\/$/, "a random prefix only the page knows");
    let r = await get(url, base);
    assert.equal(r.status, 200);
    assert.match(r.body, /import \* as runtime from "\.\/runtime\/webgpu\.js"/);
    assert.equal((await get(url, base + "host/core.js")).status, 200);
    r = await get(url, base + "runtime/webgpu.js");
    assert.deepEqual([r.status, r.body], [200, "export const x = 1;\n"]);
  } finally {
    server.close();
  }
});

test("a link named *.js in the runtime's folder is not followed, nor a folder, nor a path outside it", async () => {
  const { server, url } = await serveFiles(join(runtimeDir, "webgpu.js"));
  try {
    const base = new URL(url).pathname;
    for (const name of ["token.js", "hostname.js", "dir.js", "sub/inner.js", "..%2Foutside-token.txt", "../outside-token.txt", ".hidden.js", "missing.js"]) {
      const r = await get(url, base + "runtime/" + name);
      assert.equal(r.status, 404, name);
      assert.doesNotMatch(r.body, /secret-token-value/, name);
    }
  } finally {
    server.close();
  }
});

test("a file with another name (a hard link) is not served: its content may be any file of the file system", async () => {
  const logged = [];
  const { server, url } = await serveFiles(join(runtimeDir, "webgpu.js"), (line) => logged.push(line));
  try {
    const r = await get(url, new URL(url).pathname + "runtime/hard.js");
    assert.equal(r.status, 404);
    assert.doesNotMatch(r.body, /secret-token-value/);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /refused ".*\/runtime\/hard\.js": the file has 2 names \(hard links\)/);
  } finally {
    server.close();
  }
});

test("another local client gets nothing: a foreign Host is refused, and without the prefix nothing is found", async () => {
  const { server, url } = await serveFiles(join(runtimeDir, "webgpu.js"));
  try {
    const base = new URL(url).pathname;
    for (const host of ["evil.example", "localhost:" + new URL(url).port, "127.0.0.1", "127.0.0.1:1"]) {
      const r = await get(url, base + "runtime/webgpu.js", host);
      assert.equal(r.status, 403, host);
    }
    for (const path of ["/", "/runtime/webgpu.js", "/host/core.js", "/x" + base + "runtime/webgpu.js"]) {
      assert.equal((await get(url, path)).status, 404, path);
    }
  } finally {
    server.close();
  }
});

test("Chromium keeps its sandbox, unless the host runs as root, where Chromium refuses one", () => {
  assert.equal(chromiumArgs("/p").includes("--no-sandbox"), false);
  assert.equal(chromiumArgs("/p", false).includes("--no-sandbox"), true);
  assert.equal(sandboxRefusal(1000), "");
  assert.match(sandboxRefusal(0), /runs as root, and Chromium does not start its sandbox as root/);
});
