// Captures every published version listed in servers.json, diffs each
// consecutive pair with mcp-surface, and checks every witness the diffs
// emit with ajv, a validator independent of mcp-surface's own.
//
//   node bench/witness/run.mjs --bin MCP_SURFACE --out DIR [--runs 5]
//   node bench/witness/run.mjs --self-test
//
// Run it through bench/witness.sh, which builds the binary and installs
// the servers. Exit 1 when a witness is wrong (or the self-test fails),
// 2 when a capture or a diff fails.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "package.json"));
const Ajv07 = require("ajv").default;
const Ajv2019 = require("ajv/dist/2019").default;
const Ajv2020 = require("ajv/dist/2020").default;

const CAPTURE_TIMEOUT_MS = 120_000;
const DIFF_TIMEOUT_MS = 300_000;
const MAX_LISTED = 10_000; // bound on the findings listed per pair

// Revisions before 2025-11-25 read a schema without "$schema" as draft-07,
// from 2025-11-25 on as 2020-12 (as the MCP specification says).
function defaultDialect(protocolVersion) {
  return typeof protocolVersion === "string" && protocolVersion >= "2025-11-25" ? "2020-12" : "draft-07";
}

function dialectOf(schema, protocolVersion) {
  const s = schema && typeof schema === "object" ? schema.$schema : undefined;
  if (typeof s !== "string" || s === "") return defaultDialect(protocolVersion);
  if (s.includes("2020-12")) return "2020-12";
  if (s.includes("2019-09")) return "2019-09";
  if (/draft-0[467]/.test(s)) return "draft-07"; // draft-04/06 read as draft-07 (noted in the README)
  return "unknown:" + s;
}

// validate reports whether schema (in its dialect) accepts value: true,
// false, or a string saying why it could not be checked.
function validate(schema, value, protocolVersion) {
  if (schema === undefined) return true; // no outputSchema: any structuredContent is accepted
  if (schema === true || schema === false) return schema;
  const dialect = dialectOf(schema, protocolVersion);
  const opts = { strict: false, validateFormats: false, validateSchema: false, allErrors: false, unicodeRegExp: true };
  let ajv;
  switch (dialect) {
    case "2020-12": ajv = new Ajv2020(opts); break;
    case "2019-09": ajv = new Ajv2019(opts); break;
    case "draft-07": ajv = new Ajv07(opts); break;
    default: return "unsupported dialect " + dialect;
  }
  const copy = structuredClone(schema);
  delete copy.$schema; // the class chosen above is the dialect; ajv need not resolve the meta-schema
  try {
    return ajv.compile(copy)(value) === true;
  } catch (e) {
    return "ajv could not compile the schema: " + String(e.message).slice(0, 200);
  }
}

// checkWitness returns "ok", "wrong: ..." or "unchecked: ...".
function checkWitness(w, baseSchema, headSchema, baseProto, headProto) {
  if (!w || typeof w !== "object" || !("value" in w)) return "wrong: witness has no value";
  const sides = { base: [baseSchema, baseProto], head: [headSchema, headProto] };
  if (!sides[w.accepts] || !sides[w.rejects] || w.accepts === w.rejects) {
    return `wrong: accepts ${JSON.stringify(w.accepts)} / rejects ${JSON.stringify(w.rejects)} is not base/head`;
  }
  const acc = validate(sides[w.accepts][0], w.value, sides[w.accepts][1]);
  const rej = validate(sides[w.rejects][0], w.value, sides[w.rejects][1]);
  if (typeof acc === "string") return "unchecked: " + w.accepts + ": " + acc;
  if (typeof rej === "string") return "unchecked: " + w.rejects + ": " + rej;
  if (!acc) return `wrong: ${w.accepts} rejects the value`;
  if (rej) return `wrong: ${w.rejects} accepts the value`;
  return "ok";
}

function schemaField(f) {
  const p = f.pointer || "";
  if (p.startsWith("/inputSchema")) return "inputSchema";
  if (p.startsWith("/outputSchema")) return "outputSchema";
  return f.rule.startsWith("output-") ? "outputSchema" : "inputSchema";
}

function isSchemaRule(rule) {
  return rule.startsWith("input-") || rule.startsWith("output-");
}

// toolSchemas finds the finding's tool on both sides, following a rename
// the same report names.
function toolSchemas(f, base, head, renames) {
  const name = f.subject && f.subject.name;
  const byName = (snap, n) => (snap.tools || []).find((t) => t.name === n);
  let bt = byName(base, name);
  let ht = byName(head, name);
  if (!ht && renames.has(name)) ht = byName(head, renames.get(name));
  if (!bt) for (const [b, h] of renames) if (h === name) bt = byName(base, b);
  const field = schemaField(f);
  return { field, base: bt && bt[field], head: ht && ht[field], found: Boolean(bt && ht) };
}

function analysePair(report, base, head) {
  const renames = new Map();
  for (const f of report.findings || []) {
    if (f.rule === "tool-renamed" && typeof f.before === "string" && typeof f.after === "string") renames.set(f.before, f.after);
  }
  const rows = [];
  for (const f of (report.findings || []).slice(0, MAX_LISTED)) {
    if (!isSchemaRule(f.rule)) continue;
    const row = { rule: f.rule, level: f.level, tool: f.subject ? f.subject.name : "", pointer: f.pointer || "", witness: Boolean(f.witness), verdict: "" };
    if (f.witness) {
      const s = toolSchemas(f, base, head, renames);
      row.verdict = s.found ? checkWitness(f.witness, s.base, s.head, base.protocolVersion, head.protocolVersion) : "unchecked: tool not found on both sides";
    }
    rows.push(row);
  }
  const key = (r) => [r.tool, r.pointer, r.rule].join("\u0000");
  rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return rows;
}

function parseArgs(argv) {
  const o = { runs: 5 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--self-test") o.selfTest = true;
    else if (a === "--bin") o.bin = argv[++i];
    else if (a === "--out") o.out = argv[++i];
    else if (a === "--runs") o.runs = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}: use --bin FILE --out DIR [--runs N] or --self-test`);
  }
  return o;
}

function entryOf(alias, bin) {
  const dir = path.join(here, "node_modules", alias);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  let rel = typeof pkg.bin === "string" ? pkg.bin : pkg.bin && (bin ? pkg.bin[bin] : Object.values(pkg.bin)[0]);
  if (!rel) rel = pkg.main;
  if (!rel) throw new Error(`${alias}: package.json names no bin or main`);
  return path.join(dir, rel);
}

function capture(o, server, version, outFile) {
  const alias = `${server.name}-${version}`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "witness-"));
  try {
    const args = ["capture", "--protocol-version", "2025-11-25", "-o", outFile, "--cwd", scratch];
    for (const [k, v] of Object.entries(server.env || {})) args.push("--env", `${k}=${v}`);
    args.push("--", "node", entryOf(alias, server.bin), ...(server.args || []).map((a) => a.replaceAll("{dir}", scratch)));
    const r = spawnSync(o.bin, args, { cwd: scratch, env: { ...process.env, HOME: scratch }, encoding: "utf8", timeout: CAPTURE_TIMEOUT_MS, stdio: ["ignore", "pipe", "pipe"] });
    if (r.status !== 0) throw new Error(`capture of ${alias} failed (exit ${r.status}${r.signal ? ", " + r.signal : ""}): ${(r.stderr || "").slice(-500)}`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function diff(o, a, b) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(o.bin, ["diff", "--format", "json", "--fail-on", "none", a, b], { encoding: "utf8", maxBuffer: 1 << 30, timeout: DIFF_TIMEOUT_MS, stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`diff ${a} ${b} failed (exit ${r.status}): ${(r.stderr || "").slice(-500)}`);
  return { report: JSON.parse(r.stdout), ms, stdout: r.stdout };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

function run(o) {
  if (!o.bin || !o.out) throw new Error("--bin and --out are required");
  o.out = path.resolve(o.out);
  o.bin = path.resolve(o.bin);
  const { servers } = JSON.parse(fs.readFileSync(path.join(here, "servers.json"), "utf8"));
  servers.sort((a, b) => (a.name < b.name ? -1 : 1));
  fs.mkdirSync(path.join(o.out, "snapshots"), { recursive: true });
  fs.mkdirSync(path.join(o.out, "diffs"), { recursive: true });
  const pairs = [];
  for (const s of servers) {
    let prev;
    for (const v of s.versions) {
      const snap = path.join(o.out, "snapshots", `${s.name}-${v}.json`);
      capture(o, s, v, snap);
      process.stderr.write(`captured ${s.name}-${v}\n`);
      if (prev) pairs.push({ name: `${s.name}-${prev.v}..${v}`, a: prev.snap, b: snap, key: `${s.name}-${prev.v}..${s.name}-${v}` });
      prev = { v, snap };
    }
  }
  const lines = [];
  const out = (l) => { lines.push(l); process.stdout.write(l + "\n"); };
  const tot = { errors: 0, withWitness: 0, warnings: 0, witnesses: 0, ok: 0, wrong: 0, unchecked: 0 };
  const detail = [];
  const rowsByPair = new Map();
  let largest;
  out("| pair | base bytes | head bytes | diff ms | schema errors | with witness | schema warnings | witnesses | ok | wrong | unchecked |");
  out("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const p of pairs) {
    const d = diff(o, p.a, p.b);
    fs.writeFileSync(path.join(o.out, "diffs", `${p.name}.json`), d.stdout);
    const base = JSON.parse(fs.readFileSync(p.a, "utf8"));
    const head = JSON.parse(fs.readFileSync(p.b, "utf8"));
    const rows = analysePair(d.report, base, head);
    rowsByPair.set(p.key, { rows, base, head });
    const c = { errors: 0, withWitness: 0, warnings: 0, witnesses: 0, ok: 0, wrong: 0, unchecked: 0 };
    for (const r of rows) {
      if (r.level === "error") { c.errors++; if (r.witness) c.withWitness++; }
      if (r.level === "warning") c.warnings++;
      if (r.witness) {
        c.witnesses++;
        if (r.verdict === "ok") c.ok++;
        else if (r.verdict.startsWith("wrong")) c.wrong++;
        else c.unchecked++;
      }
      if (r.level === "error" || r.witness) detail.push(`${p.name} ${r.level} ${r.rule} tool:${r.tool} ${r.pointer} witness=${r.witness ? r.verdict : "none"}`);
    }
    for (const k of Object.keys(tot)) tot[k] += c[k];
    const ab = fs.statSync(p.a).size, bb = fs.statSync(p.b).size;
    if (!largest || ab + bb > largest.bytes) largest = { ...p, bytes: ab + bb };
    out(`| ${p.name} | ${ab} | ${bb} | ${d.ms.toFixed(0)} | ${c.errors} | ${c.withWitness} | ${c.warnings} | ${c.witnesses} | ${c.ok} | ${c.wrong} | ${c.unchecked} |`);
  }
  const times = [];
  for (let i = 0; i < o.runs; i++) times.push(diff(o, largest.a, largest.b).ms);
  const cov = tot.errors ? ((100 * tot.withWitness) / tot.errors).toFixed(1) : "n/a";
  out("");
  out(`pairs: ${pairs.length}; schema errors: ${tot.errors}; with witness: ${tot.withWitness}; coverage: ${cov}%`);
  out(`witnesses: ${tot.witnesses} (ok ${tot.ok}, wrong ${tot.wrong}, unchecked ${tot.unchecked}); schema warnings: ${tot.warnings}`);
  out(`largest pair: ${largest.name} (${largest.bytes} bytes); diff time, median of ${o.runs}: ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`);
  out("");
  out("schema errors and witnessed findings (pair level rule subject pointer witness):");
  for (const l of detail) out(l);
  const known = checkKnown(rowsByPair, out);
  fs.writeFileSync(path.join(o.out, "summary.md"), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(o.out, "totals.json"), JSON.stringify({ ...tot, coverage: cov, known, largest: { pair: largest.name, bytes: largest.bytes, medianMs: median(times) } }, null, 2) + "\n");
  return tot.wrong > 0 || known.wrong > 0 ? 1 : 0;
}

// checkKnown validates the hand-written witnesses of known.json (breaks
// judged real by reading the schemas) and says whether the pair's diff
// has an error on that tool: a "missed" one is a break the diff does not
// report as an error.
function checkKnown(rowsByPair, out) {
  const { witnesses } = JSON.parse(fs.readFileSync(path.join(here, "known.json"), "utf8"));
  const c = { ok: 0, wrong: 0, missed: 0 };
  out("");
  out("hand-written witnesses (known.json): pair tool verdict diff-error");
  for (const w of witnesses) {
    const p = rowsByPair.get(`${w.base}..${w.head}`);
    if (!p) { c.wrong++; out(`${w.base}..${w.head} ${w.tool} wrong: no such pair in servers.json`); continue; }
    const headTool = w.headTool || w.tool;
    const bt = (p.base.tools || []).find((t) => t.name === w.tool);
    const ht = (p.head.tools || []).find((t) => t.name === headTool);
    const verdict = bt && ht ? checkWitness(w, bt[w.field], ht[w.field], p.base.protocolVersion, p.head.protocolVersion) : "wrong: tool not found on both sides";
    const hit = p.rows.some((r) => r.level === "error" && (r.tool === w.tool || r.tool === headTool));
    if (verdict === "ok") c.ok++; else c.wrong++;
    if (!hit) c.missed++;
    out(`${w.base}..${w.head} ${w.tool} ${verdict} ${hit ? "error" : "missed"}`);
  }
  out(`hand-written witnesses: ${witnesses.length} (ok ${c.ok}, wrong ${c.wrong}); breaks the diff has no error for: ${c.missed}`);
  return c;
}

// selfTest proves the checker can fail: right witnesses pass, wrong ones
// are caught, in both dialects.
function selfTest() {
  const base = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { type: "string", pattern: "^[a-z]+$" } } };
  const head = { type: "object", properties: { n: { type: "string", pattern: "^[a-z]+\\.png$" } }, required: ["n"] };
  const cases = [
    [{ value: { n: "icon" }, accepts: "base", rejects: "head" }, "ok"],
    [{ value: {}, accepts: "base", rejects: "head" }, "ok"],
    [{ value: { n: "icon.png" }, accepts: "base", rejects: "head" }, "wrong"],
    [{ value: { n: "a.png" }, accepts: "head", rejects: "base" }, "ok"],
    [{ value: { n: 1 }, accepts: "base", rejects: "head" }, "wrong"],
    [{ value: { n: "x" }, accepts: "base", rejects: "base" }, "wrong"],
    [{ accepts: "base", rejects: "head" }, "wrong"],
  ];
  let failed = 0;
  for (const [w, want] of cases) {
    const got = checkWitness(w, base, head, "2025-06-18", "2025-11-25");
    if (!got.startsWith(want)) { failed++; console.log(`FAIL ${JSON.stringify(w)}: got ${got}, want ${want}`); }
  }
  // 2020-12 by default from 2025-11-25: prefixItems is a keyword there, not in draft-07.
  const tuple = { type: "array", prefixItems: [{ type: "string" }] };
  if (validate(tuple, [1], "2025-11-25") !== false) { failed++; console.log("FAIL prefixItems not applied in 2020-12"); }
  if (validate(tuple, [1], "2025-06-18") !== true) { failed++; console.log("FAIL prefixItems applied in draft-07"); }
  if (validate({ type: "string", format: "no-such-format" }, "x", "2025-11-25") !== true) { failed++; console.log("FAIL unknown format not ignored"); }
  // A report's findings are matched to their tool across a rename, and to
  // the schema their pointer names.
  const snapBase = { protocolVersion: "2025-06-18", tools: [{ name: "old-name", inputSchema: base, outputSchema: { type: "object" } }] };
  const snapHead = { protocolVersion: "2025-11-25", tools: [{ name: "new_name", inputSchema: head, outputSchema: { type: "object", required: ["r"] } }] };
  const report = { findings: [
    { rule: "tool-renamed", level: "error", subject: { kind: "tool", name: "old-name" }, before: "old-name", after: "new_name" },
    { rule: "input-pattern-changed", level: "error", subject: { kind: "tool", name: "new_name" }, pointer: "/inputSchema/properties/n/pattern", witness: { value: { n: "icon" }, accepts: "base", rejects: "head" } },
    { rule: "output-required-property-added", level: "note", subject: { kind: "tool", name: "old-name" }, pointer: "/outputSchema/required", witness: { value: { n: "a.png" }, accepts: "base", rejects: "head" } },
    { rule: "output-required-property-added", level: "error", subject: { kind: "tool", name: "old-name" }, pointer: "/outputSchema/required", witness: { value: {}, accepts: "head", rejects: "base" } },
    { rule: "input-type-changed", level: "warning", subject: { kind: "tool", name: "new_name" }, pointer: "/inputSchema/properties/n/type" },
  ] };
  const verdicts = analysePair(report, snapBase, snapHead).map((r) => `${r.rule} ${r.level} ${r.verdict.split(":")[0] || "none"}`);
  const want = ["output-required-property-added note ok", "output-required-property-added error wrong", "input-pattern-changed error ok", "input-type-changed warning none"];
  for (const w of want) if (!verdicts.includes(w)) { failed++; console.log(`FAIL analysePair: want ${w} in ${JSON.stringify(verdicts)}`); }
  if (verdicts.length !== want.length) { failed++; console.log(`FAIL analysePair: ${verdicts.length} rows, want ${want.length}`); }
  console.log(failed ? `self-test: ${failed} failed` : `self-test: ${cases.length + 3 + want.length + 1} passed, 0 failed`);
  return failed ? 1 : 0;
}

try {
  const o = parseArgs(process.argv.slice(2));
  process.exitCode = o.selfTest ? selfTest() : run(o);
} catch (e) {
  console.error(`witness: ${e.message}`);
  process.exitCode = 2;
}
