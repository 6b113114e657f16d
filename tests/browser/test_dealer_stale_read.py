"""A read of the table that left before a command and comes back after its answer is older than
the screen: the tablet keeps what it shows. (A read after a refusal, or after a hello that
differs, could otherwise put a settled round back to "Settle", and the dealer would wait for a
screen that never moves on.)"""

from __future__ import annotations

from tests.browser.conftest import log_in
from tests.browser.dealer_screen import deal
from tests.tablegame.conftest import ready_table

#: Player 9 and T (9), Banker K and 2 (2): a natural, complete in four cards.
NATURAL = ["9S", "KD", "TH", "2C"]

#: Count the reads of the table the tablet has received (its own code goes on with each answer
#: in the next microtask, before Playwright's next call is served).
COUNT_READS = """(url) => {
    window.reads = 0;
    const read = Http.getJSON;
    Http.getJSON = async (asked) => {
        const answer = await read(asked);
        if (asked === url) window.reads += 1;
        return answer;
    };
}"""


#: The page's sockets, kept where the test can reach them (this server has none to open).
KEEP_SOCKETS = """(() => {
    const Real = window.WebSocket;
    window.__sockets = [];
    window.WebSocket = function (url) {
        const s = new Real(url);
        window.__sockets.push(s);
        return s;
    };
    window.WebSocket.OPEN = Real.OPEN;
})()"""

#: A hello past what the tablet shows, on its socket, as the server's heartbeat says it.
HELLO_PAST = """(table) => {
    const socket = window.__sockets[window.__sockets.length - 1];
    const data = JSON.stringify({ type: "hello", table, sequence: 1000000 });
    socket.onmessage({ data });
}"""


def test_a_read_older_than_the_screen_is_not_shown(floor_staff, live_server, browser):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.add_init_script(KEEP_SOCKETS)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Place your bets: open the round")
    page.click("text=No more bets")
    page.wait_for_selector("#card-pad:not([hidden])")
    deal(page, NATURAL)
    page.wait_for_selector("#actions button:text-is('Settle')")

    # A hello says the table moved on (a notice lost on the way, as the server's heartbeat
    # tells it): the tablet reads the table again, and the server answers that read now (the
    # coup complete) ...
    held = []

    def hold(route):
        if route.request.method != "GET":
            return route.continue_()
        held.append((route, route.fetch()))

    page.route(f"**/api/tables/{table.pk}/", hold)
    page.evaluate(COUNT_READS, f"/api/tables/{table.pk}/")
    page.evaluate(HELLO_PAST, table.pk)
    while not held:
        page.wait_for_timeout(20)
    assert held[0][1].json()["round"]["state"] == "complete"

    # ... but its answer reaches the tablet only after the round is settled.
    page.click("#actions button:text-is('Settle')")
    page.wait_for_selector("#t-shoe dd:text('· Settled')")
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_function("() => window.reads >= 1")

    assert "· Settled" in page.inner_text("#t-shoe")
    assert page.locator("#actions button:text-is('Settle')").count() == 0
    assert page.locator("#actions button:text('Place your bets')").count() == 1
