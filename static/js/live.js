/* Live notices: a hint that a table changed, so the page reloads it over HTTP. Never the state.

   Protocol (server side: tablegame/consumers.py, tablegame/broadcast.py)
     Sockets, ws: or wss: as the page; the session cookie logs in, the Origin must be an allowed host:
       /ws/tables/<id>/   one table        dealer, floorperson, pit boss, pit clerk, surveillance, accounting
       /ws/pits/<id>/     a pit's tables   the same without the dealer
       /ws/pits/<id>/meters/  the pit's tables with progressive meters (Live.watchPit's
                          option meters: the progressives page)
       /ws/surveillance/  every table      surveillance (and superusers)
     The server talks, the page listens; it says only {"type": "hello"}, when a second watcher
     joins a socket already open (watchers of one path share one socket: the tablet's script and
     its progressive strip), to have the hello said again for it:
       {"type": "hello", "table": 7, "sequence": 41}                          on connect, table socket
       {"type": "hello", "pit": 1, "tables": [{"table": 7, "sequence": 41}]}  pit socket
       {"type": "hello", "tables": [...]}                                     surveillance socket
       {"type": "changed", "table": 7, "sequence": 42, "action": "wager_placed"}  after each commit
       the hello again, the same shape, about every 30 s while connected (the server's heartbeat)
     "sequence" is the number of the table's last event in the record (0 before the first); every
     change adds one. Delivery is at most once, so a notice can be lost: a jump of more than one,
     or a hello (first or repeated) that differs from the sequence last seen (changes made while
     disconnected, or a lost notice, the last of a table included), means "reload". The page does
     not poll: the repeated hello is the safety net. Close codes 4401 (not logged in), 4403 (the
     role may not watch this), 4404 (no such table or pit) are final; any other close reconnects,
     waiting 1 s, 2 s, 4 s ... up to 30 s (at once when the page is shown again or goes online).

   Use
     const live = Live.watch(tableId, onChange, options);
     Live.watchPit(pitId, onChange, options);  Live.watchSurveillance(onChange, options);
     onChange(tableId, {reason, sequence, action, change}) with reason "hello" (a hello's sequence
       differs from the one remembered: first connect, changes missed while away, or a notice
       lost, which the next repeated hello reveals), "changed", or "gap" (a notice skipped some).
       Reason "refresh" (the old safety reload every 30 s) is no longer produced.
     options: sequence (Live.watch) or sequences ({tableId: n}): what the page already shows, so
       the first hello reloads only if something changed since; refreshEvery is ignored (no
       periodic refresh any more); onStatus(status, code) with "open", "closed" (will retry) or
       "refused" (final, e.g. 4401: send the user to /login/); onNotice(message) for any other
       notice of the socket (the pit socket's {"type": "forms", "pit": 1, "sequence": 9,
       "action": "vigorish_form_signed"}: a Complimentary Vigorish Form changed, an event of the
       pit's own chain; a table's socket has the same for the forms of its table).
     live.close() stops watching.
     Live.matters(detail, test): whether a screen should read again for this notice (a hello or
       a gap always; a change when test(event, change) holds for one of its events).
     Live.touches(events, { changes, also }): whether one of the events changes one of the parts
       of the table state `changes` or one of the things `also`, by the map of event kinds the
       page embeds (#event-kinds: {% event_kinds %}, tablegame.kinds); an event of a kind the map
       does not have changes everything. Screens decide from it what to redraw. */
"use strict";

(function () {
  const REFUSED = new Set([4401, 4403, 4404]);
  const FIRST_RETRY = 1000;
  const LAST_RETRY = 30000;

  function socketUrl(path) {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}${path}`;
  }

  /* One socket per path, whoever on the page watches it (the tablet's script and its
     progressive strip watch the same table): each watcher keeps the sequences it has seen and is
     told as if the socket were its own. */
  const shared = new Map();

  function open(path, onChange, options, known) {
    let line = shared.get(path);
    if (!line) {
      line = connection(path);
      shared.set(path, line);
    }
    return line.add(watcher(onChange, options, known));
  }

  /* What one watcher of a socket is told: its own bookkeeping of the sequences seen. */
  function watcher(onChange, options, known) {
    const seen = new Map(Object.entries(known).map(([id, n]) => [Number(id), Number(n)]));

    function tell(table, detail) {
      try {
        onChange(table, detail);
      } catch (error) {
        console.error("live: onChange failed", error);
      }
    }

    // The first hello and every repeated one (the server's heartbeat) alike.
    function hello(table, sequence) {
      if (seen.get(table) !== sequence) tell(table, { reason: "hello", sequence });
      seen.set(table, sequence);
    }

    function changed(message) {
      const table = message.table;
      const last = seen.get(table);
      // One notice may carry several events (a command's): its first is the one that must follow.
      const events = message.change && message.change.events;
      const first = events && events.length ? events[0].sequence : message.sequence;
      const gap = last !== undefined && first > last + 1;
      if (last === undefined || message.sequence > last) seen.set(table, message.sequence);
      tell(table, {
        reason: gap ? "gap" : "changed", sequence: message.sequence, action: message.action,
        change: message.change || null,
      });
    }

    function receive(message) {
      if (message.type === "hello") {
        if (message.table !== undefined) hello(message.table, message.sequence);
        for (const row of message.tables || []) hello(row.table, row.sequence);
      } else if (message.type === "changed") {
        changed(message);
      } else if (options.onNotice) {
        try {
          options.onNotice(message);
        } catch (error) {
          console.error("live: onNotice failed", error);
        }
      }
    }

    return { receive, status: options.onStatus || (() => {}) };
  }

  /* The socket of one path: opened with its first watcher, kept open (reconnecting) while any
     watcher remains. */
  function connection(path) {
    const watchers = new Set();
    let socket = null;
    let retries = 0;
    let retryTimer = null;
    let stopped = false;
    let last = null;  // the last status, told to a watcher that comes later
    let isOpen = false;  // between the socket's open and its close

    function status(state, code) {
      last = [state, code];
      for (const w of watchers) w.status(state, code);
    }

    function receive(event) {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === "hello") retries = 0;
      for (const w of [...watchers]) w.receive(message);
    }

    function connect() {
      retryTimer = null;
      if (stopped) return;
      socket = new WebSocket(socketUrl(path));
      socket.onopen = () => { isOpen = true; status("open"); };
      socket.onmessage = receive;
      socket.onclose = (event) => {
        socket = null;
        isOpen = false;
        if (stopped) return;
        if (REFUSED.has(event.code)) {
          status("refused", event.code);
          return;
        }
        status("closed", event.code);
        const wait = Math.min(LAST_RETRY, FIRST_RETRY * 2 ** retries);
        retries += 1;
        retryTimer = setTimeout(connect, wait * (0.5 + Math.random() / 2));
      };
    }

    function reconnectNow() {
      if (stopped || socket || retryTimer === null) return;
      clearTimeout(retryTimer);
      retries = 0;
      connect();
    }

    function stop() {
      stopped = true;
      shared.delete(path);
      if (retryTimer !== null) clearTimeout(retryTimer);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", reconnectNow);
      if (socket) socket.close(1000);
    }

    const onVisible = () => { if (!document.hidden) reconnectNow(); };
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener("online", reconnectNow);
    connect();

    return {
      add(w) {
        watchers.add(w);
        if (last) w.status(...last);
        // A watcher that comes after the hello asks the server for its own: a new socket would
        // have told it; the shared one says hello again (the server's heartbeat) only later.
        if (isOpen) socket.send(JSON.stringify({ type: "hello" }));
        return {
          close() {
            watchers.delete(w);
            if (!watchers.size) stop();
          },
        };
      },
    };
  }

  function watch(tableId, onChange, options = {}) {
    const id = Number(tableId);
    const known = options.sequence === undefined ? {} : { [id]: options.sequence };
    return open(`/ws/tables/${id}/`, onChange, options, known);
  }

  function watchPit(pitId, onChange, options = {}) {
    const path = `/ws/pits/${Number(pitId)}/${options.meters ? "meters/" : ""}`;
    return open(path, onChange, options, options.sequences || {});
  }

  function watchSurveillance(onChange, options = {}) {
    return open("/ws/surveillance/", onChange, options, options.sequences || {});
  }

  /* Whether a notice may change what a screen shows: always for a hello, a gap or a notice
     without its events; otherwise when one of its events passes test(event, change). */
  function matters(detail, test) {
    const change = detail && detail.change;
    const events = change && change.events;
    if (!detail || detail.reason !== "changed" || !events || !events.length) return true;
    return events.some((event) => test(event, change));
  }

  let kinds = null;  // the page's map of event kinds, read when first asked

  function touches(events, { changes = [], also = [] } = {}) {
    if (kinds === null) {
      const embedded = document.getElementById("event-kinds");
      kinds = embedded ? JSON.parse(embedded.textContent) : {};
    }
    return events.some((event) => {
      const kind = kinds[event.action];
      if (!kind) return true;
      return changes.some((part) => kind.changes.includes(part))
        || also.some((thing) => kind.also.includes(thing));
    });
  }

  window.Live = { watch, watchPit, watchSurveillance, matters, touches };
})();
