/* What the page scripts share to talk to the server: the CSRF token from the csrftoken cookie,
   a fresh Idempotency-Key per command, and requests whose refusal comes back in the server's
   words (its {"error": "..."}). Included before the page's own script.

   Use
     Http.post(url, body, { key })  a command: JSON body, X-CSRFToken, Idempotency-Key (a fresh
                                    one unless `key` is given: pass the same key to retry a tap;
                                    the same command sent again while the first waits for its
                                    answer, a double tap, shares the first's key)
     Http.getJSON(url)              a JSON document
     Http.getText(url)              an HTML fragment
     Http.reader(url, into)         a function that reads the fragment at `url` into the element
                                    `into`, one read at a time (asked while one is on its way: one
                                    more after it); signed out, it goes to the login form
   Each resolves to { ok, status, data, error, loggedOut, retryAfter } and never rejects: `data`
   is the parsed answer (or the text), `error` the server's message or one in words when it gave
   none (status 0: no answer at all), `loggedOut` true when the request was sent to the login
   form, `retryAfter` the seconds of a Retry-After header (a busy table's 503), else null.
     Http.newKey()        a new Idempotency-Key (crypto.randomUUID, or a random string without it)
     Http.cookie(name)    a cookie's value, or "" */
"use strict";

(function () {
  const NO_ANSWER = "No answer from the server: check the connection, then try again.";

  function cookie(name) {
    const found = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();  // only in secure contexts (https:, localhost)
    }
    const random = () => Math.random().toString(16).slice(2, 10).padEnd(8, "0");
    return `${Date.now().toString(16)}-${random()}-${random()}-${random()}`;
  }

  async function request(url, init, read) {
    let response;
    try {
      response = await fetch(url, { credentials: "same-origin", cache: "no-store", ...init });
    } catch (error) {
      return { ok: false, status: 0, data: null, error: NO_ANSWER, loggedOut: false, retryAfter: null };
    }
    const loggedOut = response.redirected && new URL(response.url).pathname.startsWith("/login/");
    let data = null;
    try {
      data = read === "text" ? await response.text() : await response.json();
    } catch (error) {
      data = null;  // not JSON: an error page, or the login form
    }
    const ok = response.ok && !loggedOut;
    let message = null;
    if (loggedOut) message = "You are logged out: log in again.";
    else if (!ok) {
      message = (data && typeof data === "object" && data.error)
        || `The server refused (${response.status}).`;
    }
    const after = Number.parseInt(response.headers.get("Retry-After") || "", 10);
    const retryAfter = Number.isFinite(after) && after >= 0 ? after : null;
    return { ok, status: response.status, data, error: message, loggedOut, retryAfter };
  }

  function getJSON(url) {
    return request(url, { headers: { Accept: "application/json" } }, "json");
  }

  function getText(url) {
    return request(url, { headers: { Accept: "text/html" } }, "text");
  }

  function reader(url, into) {
    let loading = false;
    let again = false;
    async function read() {
      if (loading) { again = true; return; }
      loading = true;
      try {
        const answer = await getText(url);
        if (answer.loggedOut) { window.location.assign("/login/"); return; }
        if (answer.ok) into.innerHTML = answer.data;
      } finally {
        loading = false;
        if (again) { again = false; read(); }
      }
    }
    return read;
  }

  // A double tap sends one command twice before the first is answered. While a command waits
  // for its answer, the same command (URL and body) is sent with the same key, and the server
  // does it once: it answers the repeat with the first answer. Once answered, the same command
  // again is a new one (a new key), refused or done by the server as such.
  const waiting = new Map();  // `${url}\n${body}` -> its key

  function post(url, body = {}, { key } = {}) {
    const text = JSON.stringify(body);
    const command = `${url}\n${text}`;
    const tapped = key === undefined && waiting.has(command);
    const sent = key !== undefined ? key : (waiting.get(command) || newKey());
    const answered = request(url, {
      method: "POST",
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        "X-CSRFToken": cookie("csrftoken"),
        "Idempotency-Key": sent,
      },
      body: text,
    }, "json");
    if (key === undefined && !tapped) {
      waiting.set(command, sent);
      answered.then(() => waiting.delete(command));  // request() never rejects
    }
    return answered;
  }

  window.Http = { post, getJSON, getText, reader, newKey, cookie };
})();
