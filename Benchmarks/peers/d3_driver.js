// d3-force on an exported scene: forceCollide (radius per body) + forceX/forceY to the target.
// Usage: node d3_driver.js SCENE.json [WARMUP=20] [STEPS=100]
// Prints one JSON object: median/min/max ms per tick over ticks WARMUP+1..WARMUP+STEPS and the
// deepest overlap after the last tick (pt).
'use strict';
const fs = require('fs');
const d3 = require('d3-force');
const [file, warmupArg, stepsArg] = process.argv.slice(2);
const warmup = +(warmupArg || 20), steps = +(stepsArg || 100);
const scene = JSON.parse(fs.readFileSync(file, 'utf8'));
const [tx, ty] = scene.target || [0, 0];
const nodes = scene.bodies.map((b) => {
  if (b.r === undefined) throw new Error('d3 driver: circles only (export with --circles-only)');
  return { x: b.x, y: b.y, r: b.r };
});
const sim = d3.forceSimulation(nodes)
  .force('collide', d3.forceCollide((d) => d.r))
  .force('x', d3.forceX(tx))
  .force('y', d3.forceY(ty))
  .stop();
const times = [];
for (let k = 1; k <= warmup + steps; k++) {
  const t0 = process.hrtime.bigint();
  sim.tick();
  const t1 = process.hrtime.bigint();
  if (k > warmup) times.push(Number(t1 - t0) / 1e6);
}
times.sort((a, b) => a - b);
// Deepest overlap: sweep over x.
const idx = nodes.map((_, i) => i).sort((a, b) => (nodes[a].x - nodes[a].r) - (nodes[b].x - nodes[b].r));
let worst = 0;
for (let a = 0; a < idx.length; a++) {
  const p = nodes[idx[a]], hi = p.x + p.r;
  for (let b = a + 1; b < idx.length && nodes[idx[b]].x - nodes[idx[b]].r < hi; b++) {
    const q = nodes[idx[b]];
    const d = p.r + q.r - Math.hypot(q.x - p.x, q.y - p.y);
    if (d > worst) worst = d;
  }
}
console.log(JSON.stringify({ peer: 'd3-force', bodies: nodes.length, ms_median: times[times.length >> 1],
  ms_min: times[0], ms_max: times[times.length - 1], max_overlap_pt: worst, steps: warmup + steps }));
