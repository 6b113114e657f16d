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
const context = {
  window: { location: { protocol: "http:", host: "tables.test" }, addEventListener() {},
    removeEventListener() {} },
  document: { hidden: false, addEventListener() {}, removeEventListener() {} },
  WebSocket: FakeSocket,
  setTimeout: (fn) => { timers.push(fn); return timers.length; },
  clearTimeout() {}, setInterval: () => 1, clearInterval() {}, console, JSON, Math, Number,
  Map, Set, Object,
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
sockets[1].close(4403);                                      // refused: no retry
console.log(JSON.stringify({ told, urls: sockets.map((s) => s.url), retries: timers.length }));
