import fs from 'node:fs';
import { loadTownFiles } from './server/src/world/townFiles';
try { loadTownFiles(process.argv[2], process.argv[3]); } catch (e) { console.log((e as Error).message); }
