import { runFaultyDay } from './tests/fakes/faultyDay';
for (const rate of [0, 0.2]) { const t0 = Date.now(); const r = await runFaultyDay(rate); console.log(rate, (Date.now()-t0)/1000, JSON.stringify(r)); }
