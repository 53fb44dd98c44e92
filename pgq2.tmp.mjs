import pg from 'pg';
import { readFileSync } from 'node:fs';
const pool = new pg.Pool({ connectionString: process.env.URL, max: 20 });
const { rows: [s] } = await pool.query('SELECT id, "userId" FROM "Session" LIMIT 1');
const text = `SELECT u.id, u.name, u.email, u.role, u.tier, u."createdAt", s."revokedAt", s."lastUsedAt"
             FROM "Session" s JOIN "User" u ON u.id = s."userId"
            WHERE s.id = $1 AND s."userId" = $2`;
const cpu = () => { const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number); return { busy: f[0]+f[1]+f[2]+f[5]+f[6], all: f.reduce((a,b)=>a+b,0) }; };
for (const named of [false, true, false, true]) {
  const n = 20000; const c0 = process.cpuUsage(); const s0 = cpu(); const t0 = performance.now();
  let i = 0;
  await Promise.all(Array.from({ length: 20 }, async () => { while (i++ < n) await pool.query(named ? { name: 'me', text, values: [s.id, s.userId] } : { text, values: [s.id, s.userId] }); }));
  const c = process.cpuUsage(c0); const s1 = cpu(); const ms = performance.now() - t0;
  const machineUs = (s1.busy - s0.busy) * 10000 / n; // jiffies (10ms) → µs per query
  const nodeUs = (c.user + c.system) / n;
  console.log(`${named ? 'named  ' : 'unnamed'}: ${(n / ms * 1000).toFixed(0)} q/s, node ${nodeUs.toFixed(1)} µs/q, machine ${machineUs.toFixed(1)} µs/q, rest(pg) ${(machineUs - nodeUs).toFixed(1)} µs/q`);
}
await pool.end();
