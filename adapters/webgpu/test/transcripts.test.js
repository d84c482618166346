// The host's protocol code replays the adapter side of the protocol
// transcripts every implementation in drp2-fixtures replays
// (internal/protocol/testdata/transcripts; their README defines the format
// and what is compared). The runtime is the fake one on a fake Dawn, so no
// GPU is needed: what is tested is serve's handshake and answers.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { PROTOCOL } from "../core.js";
import { nodeBackend } from "../node.js";
import { serve } from "../serve.js";
import { fakeDawn, fakeDevice } from "./fake-dawn.js";

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, "..", "..", "..", "internal", "protocol", "testdata", "transcripts");
const fakeRuntime = join(here, "fake-runtime.js");

// The host speaks protocol 2 only: it needs phases, which version 1 lacks.
const versions = { min: PROTOCOL, max: PROTOCOL };

// parse reads what the adapter side needs of a transcript: its side and
// each request with the answers after it. Package transcript (Go) checks
// the rest of the format.
function parse(text) {
  const t = { side: "", steps: [] };
  for (const line of text.replace(/\n$/, "").split("\n")) {
    const kind = line.slice(0, 1);
    const rest = line.slice(1).replace(/^ /, "");
    if (line === "" || kind === "#" || kind === "=" || kind === "!" || line.startsWith("<%")) {
      continue;
    }
    if (kind === ">") {
      t.steps.push({ request: rest, type: JSON.parse(rest).type, answers: [] });
    } else if (kind === "<") {
      t.steps.at(-1).answers.push(rest);
    } else if (line.startsWith("side:")) {
      t.side = line.slice(5).trim();
    }
  }
  return t;
}

// replay runs serve over the requests one at a time (serve pulls the next
// line once it has answered the one before), leaving out a fixture whose
// expected error is in a phase the host's hello does not claim.
async function replay(t) {
  const out = [];
  const sent = [];
  let next = 0;
  async function* requests() {
    while (next < t.steps.length) {
      const step = t.steps[next++];
      if (sent.length > 0 && !claimed(step, out[0])) {
        continue;
      }
      sent.push(step);
      yield step.request;
    }
  }
  const backend = nodeBackend(fakeRuntime, { strict: false }, () => assert.fail("device lost"), fakeDawn(fakeDevice()));
  await serve(requests(), (m) => out.push(JSON.stringify(m)), backend, { runtime: "fake-runtime.js", mode: "node", version: "test" });
  const goodbye = t.steps.findIndex((s) => s.type === "goodbye");
  assert.ok(next >= (goodbye < 0 ? t.steps.length : goodbye + 1), "the host stopped reading before goodbye");
  const want = sent.flatMap((s) => s.answers);
  assert.equal(out.length, want.length, `answers:\n${out.join("\n")}\nwant:\n${want.join("\n")}`);
  const session = {};
  want.forEach((w, i) => compare(w, out[i], session));
}

function claimed(step, hello) {
  if (step.type !== "fixture" || step.answers.length === 0) {
    return true;
  }
  const phases = JSON.parse(hello).phases;
  const want = JSON.parse(step.answers[0]);
  return !phases || want.outcome !== "error" || !want.phase || phases.includes(want.phase);
}

// compare normalises an answer and the transcript's as the README says.
function compare(wantLine, gotLine, session) {
  const w = JSON.parse(wantLine);
  const g = JSON.parse(gotLine);
  assert.ok(g !== null && typeof g === "object" && !Array.isArray(g), `not one JSON object: ${gotLine}`);
  if (w.type === "hello") {
    assert.equal(g.type, "hello");
    assert.ok(typeof g.name === "string" && g.name.trim() !== "", "a hello needs a name");
    assert.equal(g.protocol, Math.min(Math.max(w.protocol, versions.min), versions.max), gotLine);
    if (g.protocol < 2) {
      assert.ok(g.phases === undefined && g.adapter === undefined && g.error === undefined, gotLine);
    }
    session.protocol = g.protocol;
    session.executes = g.executes === true;
    return;
  }
  if (w.type === "verdict") {
    normaliseVerdict(w, g, session);
  }
  assert.deepEqual(g, w, `got ${gotLine}\nwant ${wantLine}`);
}

function normaliseVerdict(w, g, session) {
  delete w.message;
  delete g.message;
  if (!("phase" in g) && session.protocol >= 2) {
    delete w.phase;
  }
  for (const m of [w, g]) {
    if (!session.executes || !Array.isArray(m.replies) || m.replies.length === 0) {
      delete m.replies;
    }
    for (const r of m.replies ?? []) {
      for (const rb of r?.readbacks ?? []) {
        rb.data = dataLength(rb.data);
      }
    }
  }
}

// dataLength is the number of bytes of strict base64, else the data as is.
function dataLength(data) {
  if (typeof data !== "string" || data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
    return data;
  }
  return Buffer.from(data, "base64").length;
}

const names = readdirSync(dir).filter((n) => n.endsWith(".txt")).sort();

test("the transcripts are there", () => {
  assert.ok(names.filter((n) => parse(readFileSync(join(dir, n), "utf8")).side !== "harness").length >= 5);
});

for (const name of names) {
  const t = parse(readFileSync(join(dir, name), "utf8"));
  if (t.side === "harness") {
    continue;
  }
  test(`transcript ${name}`, () => replay(t));
}
