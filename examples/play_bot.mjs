#!/usr/bin/env node
// A bot that plays any game on a Postal Boards server through its API, in JavaScript with
// Node's built-in fetch (Node 18 or later) and no packages: the same client as
// examples/play_bot.py, from docs/api.md alone.
//
//   node examples/play_bot.mjs --server http://127.0.0.1:8000 --token pb_... \
//       [--create nieuwstad:2 [--matches 3] --until-finished] [--state bot.json]
//
// It listens to GET /api/v1/stream (one JSON event a line) and plays a random move of each
// `turn` event's legal list, with the event's seq and an idempotency key made from it. It
// waits what a 429's Retry-After asks, backs off (1, 2, 4 ... 60 s) after a network error or
// a 5xx, and reconnects with the id of the last event it handled (kept in --state).

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    server: { type: "string", default: "http://127.0.0.1:8000" },
    token: { type: "string" },
    create: { type: "string" },
    matches: { type: "string", default: "1" },
    "until-finished": { type: "boolean", default: false },
    state: { type: "string" },
  },
});
if (!args.token) {
  console.error("--token is required");
  process.exit(2);
}
const base = args.server.replace(/\/+$/, "") + "/api/v1";
const wanted = args.create ? Number(args.matches) : 0;
const sleep = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));
const log = (...words) => console.log(new Date().toISOString(), ...words);

class ApiError extends Error {
  constructor(status, error) {
    super(`${status} ${error.code}: ${error.message}`);
    this.status = status;
    this.code = error.code;
  }
}

// One request, retried as a polite client does; any other error is the caller's.
async function send(method, path, body) {
  let backoff = 1;
  for (let attempt = 0; attempt < 30; attempt++) {
    let reason;
    try {
      const response = await fetch(base + path, {
        method,
        headers: { Authorization: `Bearer ${args.token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 429) {
        const wait = Number(response.headers.get("Retry-After")) || backoff;
        log(`rate limited: waiting ${wait} s as the server asks`);
        await response.body?.cancel();
        await sleep(wait);
        continue;
      }
      if (response.status < 500) {
        if (response.ok) return response;
        const answer = await response.json().catch(() => ({}));
        throw new ApiError(response.status, answer.error ?? {});
      }
      await response.body?.cancel();
      reason = `${response.status} from the server`;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      reason = error.cause?.code ?? error.message; // no answer: try again later
    }
    log(`${reason}: trying again in ${backoff} s`);
    await sleep(backoff);
    backoff = Math.min(60, backoff * 2);
  }
  throw new ApiError(503, { code: "unavailable", message: "gave up after 30 tries" });
}

const call = async (method, path, body) => (await send(method, path, body)).json();

// What survives a restart: the last event handled and the matches being waited for.
let memory = { last_event_id: null, watching: [], created: 0 };
if (args.state && existsSync(args.state)) memory = JSON.parse(readFileSync(args.state, "utf8"));
function save() {
  if (!args.state) return;
  writeFileSync(args.state + ".tmp", JSON.stringify(memory));
  renameSync(args.state + ".tmp", args.state);
}

async function play(matchId, seq, legal, key) {
  if (!legal.length) return;
  const choice = legal[Math.floor(Math.random() * legal.length)];
  try {
    const answer = await call("POST", `/matches/${matchId}/moves`, {
      move: choice.move,
      seq,
      idempotency_key: key,
    });
    log(`#${matchId} seq ${seq}: ${answer.message}`);
  } catch (error) {
    // key_reused: a restarted bot chose another move for an event it had answered already.
    const answered = ["moved_on", "not_your_turn", "not_in_play", "key_reused"];
    if (!answered.includes(error.code)) throw error;
    log(`#${matchId} seq ${seq}: not played, ${error.code}`);
  }
}

async function handle(event) {
  log(`event ${event.id}: ${event.type} #${event.match}`);
  if (event.type === "turn") {
    await play(event.match, event.seq, event.legal, `bot-${event.match}-${event.seq}`);
  } else if (event.type === "match_over") {
    log(`#${event.match} is ${event.status}`);
    memory.watching = memory.watching.filter((id) => id !== event.match);
  }
}

async function onHello(event) {
  const fresh = memory.last_event_id === null;
  memory.last_event_id = event.after; // the events follow this one
  save();
  log(`stream open after event ${event.after}`);
  if (fresh) {
    // Nothing to resume from: what is waiting now, from the matches' state.
    for (const match of (await call("GET", "/turns")).matches) {
      const legal = await call("GET", `/matches/${match.id}/legal`);
      await play(match.id, match.seq, legal, `bot-${match.id}-${match.seq}`);
    }
  }
  while (memory.created < wanted) {
    const [game, players] = args.create.split(":");
    const match = await call("POST", "/matches", {
      game,
      players: Number(players),
      bots: Number(players) - 1,
      rated: false,
    });
    memory.watching.push(match.id);
    memory.created += 1;
    save();
    log(`created match #${match.id} (${game}, ${players} players)`);
  }
}

const done = () => args["until-finished"] && memory.created >= wanted && !memory.watching.length;

async function main() {
  const me = await call("GET", "/me");
  log(`playing as ${me.name} (bot: ${me.bot})`);
  let backoff = 1;
  for (;;) {
    try {
      const since = memory.last_event_id === null ? "" : `?since=${memory.last_event_id}`;
      const response = await send("GET", `/stream${since}`);
      const decoder = new TextDecoder();
      let pending = "";
      for await (const chunk of response.body) {
        pending += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, end).trim();
          pending = pending.slice(end + 1);
          if (!line) continue; // a blank line only says the stream is alive
          const event = JSON.parse(line);
          backoff = 1;
          if (event.type === "hello") await onHello(event);
          else if (event.type === "closed") {
            log(`the server closed the stream: ${event.reason}; stopping`);
            return; // another run of this bot took over
          } else {
            await handle(event);
            memory.last_event_id = event.id;
            save();
          }
          if (done()) {
            log("every match is over");
            return; // leaving the loop cancels the stream

          }
        }
      }
      log("the server closed the stream: connecting again");
    } catch (error) {
      if (error instanceof ApiError && error.status !== 503) throw error;
      log(`stream lost (${error.message}): reconnecting in ${backoff} s`);
      await sleep(backoff);
      backoff = Math.min(60, backoff * 2);
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
