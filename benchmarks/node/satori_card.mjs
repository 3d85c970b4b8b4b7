// One card through Satori (layout to SVG) and resvg (SVG to PNG), as bench_browser.py asks.
// Usage: node satori_card.mjs SPEC.json
// SPEC: {tree, width, scale, fonts: [{name, path, weight, style}], runs, out}
// Writes the first PNG to `out`, then renders `runs` more times in this warm process and
// prints JSON: the monotonic time the first PNG was written and the warm timings in ms.
import { readFileSync, writeFileSync } from "node:fs";
import satori from "satori";
import { Resvg } from "@resvg/resvg-js";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const fonts = spec.fonts.map((f) => ({
  name: f.name,
  data: readFileSync(f.path),
  weight: f.weight,
  style: f.style ?? "normal",
}));

async function card() {
  const t0 = process.hrtime.bigint();
  const svg = await satori(spec.tree, { width: spec.width, fonts });
  const t1 = process.hrtime.bigint();
  const png = new Resvg(svg, { fitTo: { mode: "zoom", value: spec.scale } }).render().asPng();
  const t2 = process.hrtime.bigint();
  return { png, satoriMs: Number(t1 - t0) / 1e6, resvgMs: Number(t2 - t1) / 1e6 };
}

const first = await card();
writeFileSync(spec.out, first.png);
// process.hrtime is CLOCK_MONOTONIC on Linux, the clock of Python's time.monotonic()
const firstPngAt = Number(process.hrtime.bigint()) / 1e9;
const warm = [];
for (let i = 0; i < spec.runs; i++) {
  const r = await card();
  warm.push({ satori: r.satoriMs, resvg: r.resvgMs, total: r.satoriMs + r.resvgMs });
}
console.log(JSON.stringify({ firstPngAt, bytes: first.png.length, warm }));
