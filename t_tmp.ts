import fs from 'node:fs';
import yaml from 'yaml';
import { loadTownMap } from './server/src/world/map';
import { gatheringIn } from './server/src/agent/offlinePlanning';
import { readMeaning } from './server/src/agent/meaning';
import { rateImportanceHeuristically } from './server/src/agent/offlineImportance';
const map = loadTownMap('maps/town.tmj');
const heard = Date.UTC(2026, 1, 13, 6);
for (const f of fs.readdirSync('scenarios/general')) {
  const s = yaml.parse(fs.readFileSync('scenarios/general/' + f, 'utf8'));
  for (const w of s.interventions) { const m = readMeaning(w.text); console.log(f, w.agent, JSON.stringify(gatheringIn(w.text, heard, map)), m.secret, m.open, m.subject, rateImportanceHeuristically(w.text, undefined, heard)); }
}
