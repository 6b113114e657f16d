// Runs static/js/live.js in Node with a scripted WebSocket, and prints what the page was told.
"use strict";
const fs = require("fs");
const vm = require("vm");

const sockets = [];
class FakeSocket {
  constructor(url) { this.url = url; sockets.push(this); }
  close(code) { this.onclose && this.onclose({ code }); }
  serve(message) { this.onmessage({ data: JSON.stringify(message) }); }
}
const timers = [];
const intervals = [];
const shown = [];
const context = {
  window: { location: { protocol: "http:", host: "tables.test" }, addEventListener() {},
    removeEventListener() {} },
  document: {
    hidden: false,
    addEventListener(name, fn) { if (name === "visibilitychange") shown.push(fn); },
    removeEventListener() {},
  },
  WebSocket: FakeSocket,
  setTimeout: (fn) => { timers.push(fn); return timers.length; },
  clearTimeout() {}, setInterval: (fn) => { intervals.push(fn); return intervals.length; },
  clearInterval() {}, console, JSON, Math, Number, Map, Set, Object,
};
vm.createContext(context);
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), context);

const told = [];
context.window.Live.watch(7, (table, detail) => told.push([table, detail.reason, detail.sequence]),
  { sequence: 41 });
let socket = sockets[0];
socket.serve({ type: "hello", table: 7, sequence: 41 });   // nothing missed: no reload
socket.serve({ type: "changed", table: 7, sequence: 42, action: "wager_placed" });
socket.serve({ type: "changed", table: 7, sequence: 45, action: "card_dealt" });  // 43, 44 lost
socket.close(1006);                                          // the connection drops
timers.shift()();                                            // the retry fires
socket = sockets[1];
socket.serve({ type: "hello", table: 7, sequence: 48 });   // changes made while away
socket.serve({ type: "hello", table: 7, sequence: 48 });   // nothing new
socket.serve({ type: "changed", table: 7, sequence: 49, action: "card_dealt" });
shown.forEach((fn) => fn());                                 // the page is shown again: no reload
socket.serve({ type: "hello", table: 7, sequence: 49 });   // the heartbeat: nothing missed
socket.serve({ type: "hello", table: 7, sequence: 51 });   // the heartbeat: 50, 51 were lost
socket.serve({ type: "hello", table: 7, sequence: 51 });   // and nothing since
sockets[1].close(4403);                                      // refused: no retry
console.log(JSON.stringify({
  told, urls: sockets.map((s) => s.url), retries: timers.length, intervals: intervals.length,
}));
