import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2]));
const self = new Map(); p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const by = new Map(); let tot = 0;
for (const n of p.nodes) { const f = n.callFrame; const k = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}`; const t = self.get(n.id) ?? 0; tot += t; by.set(k, (by.get(k) ?? 0) + t); }
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 25))) console.log((100 * v / tot).toFixed(1).padStart(5) + '%', k);
