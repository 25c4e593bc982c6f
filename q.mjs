import Database from 'better-sqlite3';
const db = new Database(process.argv[2], { readonly: true });
console.log(db.prepare("select purpose, outcome, count(*) n, round(avg(latency_ms)) lat, sum(prompt_tokens) pt, sum(completion_tokens) ct, max(game_ms) g from llm_calls group by purpose, outcome").all());
