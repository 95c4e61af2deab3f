"""Charts readable on a light and a dark page; the QR code's address is the home network's."""

import html
import re
import subprocess
from pathlib import Path

import pytest

from scorekeeper.core import charts
from scorekeeper.network import addresses
from tests.helpers import post_hand, side_fields, start_game

CSS = (Path(__file__).resolve().parent.parent / "static" / "style.css").read_text()


# --- 5: chart text and axes follow the page's theme ---------------------------------------------------


def _blocks(css):
    """Top-level (selector, body) pairs; an @media block's body holds its own rules."""
    out, i = [], 0
    while True:
        start = css.find("{", i)
        if start < 0:
            return out
        depth, j = 1, start + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
        selector = re.sub(r"/\*.*?\*/", "", css[i:start], flags=re.S).strip()
        out.append((selector, css[start + 1 : j - 1]))
        i = j


def _rules(theme):
    """(selector, {property: value}) of the rules a screen in this theme applies, in order."""
    rules = []
    for selector, body in _blocks(CSS):
        if selector.startswith("@media"):
            dark = "prefers-color-scheme: dark" in selector
            if "print" in selector or (dark and theme != "dark") or (not dark and "prefers-color-scheme" in selector):
                continue
            rules += [(s, _declarations(b)) for s, b in _blocks(body)]
        else:
            rules.append((selector, _declarations(body)))
    return rules


def _declarations(body):
    return dict((k.strip(), v.strip()) for k, v in (d.split(":", 1) for d in body.split(";") if ":" in d))


def _var(rules, value):
    """A colour with var(--x) resolved from :root."""
    match = re.fullmatch(r"var\((--[\w-]+)\)", value)
    if not match:
        return value
    found = [d[match.group(1)] for s, d in rules if s == ":root" and match.group(1) in d]
    return found[-1]


def _css(rules, classes, prop):
    """The last value the stylesheet gives ``prop`` of an element in a ``.chart`` with these classes."""
    value = None
    for selector, declarations in rules:
        for one in selector.split(","):
            last = one.strip().split()[-1]
            wanted = set(re.findall(r"\.([\w-]+)", last))
            if (
                one.strip().startswith(".chart")
                and last != ".chart"
                and wanted
                and wanted <= set(classes)
                and prop in declarations
            ):
                value = declarations[prop]
    return value


def _page_colour(rules):
    """The colour of text in the chart: ``.chart``'s own colour, else the page's."""
    value = None
    for selector, declarations in rules:
        if selector in (".chart", "body") and "color" in declarations:
            value = declarations["color"]
    return _var(rules, value)


def _shown(rules, element, prop):
    """The colour a browser shows for ``prop`` (fill or stroke) of an SVG element in this theme."""
    classes = (re.search(r'class="([^"]*)"', element) or [None, ""])[1].split()
    value = _css(rules, classes, prop) or re.search(rf'{prop}="([^"]+)"', element).group(1)
    value = _var(rules, value)
    return _page_colour(rules) if value == "currentColor" else value


def _luminance(colour):
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b):
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _charts():
    line = charts.line_chart(
        [("Anna & Carl", [300, 1200, 5200]), ("Bert & Dora", [-200, 100, 400]), ("Eve", [50, -600, 900])],
        target=5000,
        title="t",
    )
    return line, charts.bar_chart([400, -300, 1200], title="b")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_chart_text_and_axes_are_readable_on_the_page(theme):
    rules = _rules(theme)
    page = _var(rules, "var(--bg)")
    for svg in _charts():
        plot = re.search(r'<rect class="chart-plot"[^>]*>', svg)
        plot_fill = _shown(rules, plot.group(0), "fill") if plot else page
        texts = re.findall(r"<text\b[^>]*>", svg)
        assert texts
        for text in texts:
            colour = _shown(rules, text, "fill")
            # a label may sit on the page or on the plot area: readable on both (WCAG AA, 4.5:1)
            for background in (page, plot_fill):
                assert _contrast(colour, background) >= 4.5, (theme, text, colour, background)
        axes = [e for e in re.findall(r"<line\b[^>]*>", svg) if re.search(r'class="chart-(axis|zero|target)"', e)]
        assert axes
        for axis in axes:  # lines that carry meaning: at least 3:1 (WCAG 1.4.11)
            assert _contrast(_shown(rules, axis, "stroke"), plot_fill) >= 3, (theme, axis)
        for series in re.findall(r"<(?:polyline|circle)\b[^>]*>|<rect\b(?![^>]*chart-plot)[^>]*>", svg):
            prop = "stroke" if series.startswith("<polyline") else "fill"
            assert _contrast(_shown(rules, series, prop), plot_fill) >= 3, (theme, series)


def test_charts_use_no_inline_style_the_csp_would_block(client):
    for svg in _charts():
        assert "style=" not in svg and "<style" not in svg
        assert 'fill="#1b1b1b"' not in svg and 'fill="#555"' not in svg
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=300), side_fields(1, melded=100))
    response = client.get(f"/games/{game_id}")
    assert "style-src 'self'" in response.headers["Content-Security-Policy"]
    chart = re.search(r'<svg[^>]*class="chart".*?</svg>', response.text, re.S).group(0)
    assert "style=" not in chart and 'fill="currentColor"' in chart


# --- 6: the QR code's address: the home network first, looked up again now and then ----------------------


IP_OUTPUT = """1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\       valid_lft forever preferred_lft forever
3: br-5f2a    inet 172.18.0.1/16 brd 172.18.255.255 scope global br-5f2a\\       valid_lft forever preferred_lft forever
4: tun0    inet 10.8.0.6/24 scope global tun0\\       valid_lft forever preferred_lft forever
5: eth1    inet 10.0.0.20/24 brd 10.0.0.255 scope global eth1\\       valid_lft forever preferred_lft forever
6: wlan0    inet {home}/24 brd 192.168.178.255 scope global dynamic wlan0\\       valid_lft 86000sec
"""


@pytest.fixture
def machine(monkeypatch):
    """This machine's interfaces as ``ip`` shows them, and a clock the test moves."""
    state = {"output": IP_OUTPUT.format(home="192.168.178.23"), "now": 1000.0, "runs": 0}

    def run(command, **kwargs):
        state["runs"] += 1
        return subprocess.CompletedProcess(command, 0, stdout=state["output"], stderr="")

    def getaddrinfo(*args, **kwargs):
        raise OSError("no name service")

    monkeypatch.setattr(addresses.subprocess, "run", run)
    monkeypatch.setattr(addresses.shutil, "which", lambda name: f"/usr/sbin/{name}")
    monkeypatch.setattr(addresses.socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(addresses, "_clock", lambda: state["now"], raising=False)
    monkeypatch.setattr(addresses, "_cached", None, raising=False)
    if hasattr(addresses.lan_addresses, "cache_clear"):
        addresses.lan_addresses.cache_clear()
    yield state
    if hasattr(addresses.lan_addresses, "cache_clear"):
        addresses.lan_addresses.cache_clear()


def test_the_home_network_address_is_preferred(machine):
    found = addresses.lan_addresses()
    assert found[0] == "192.168.178.23"
    assert found.index("10.0.0.20") < found.index("10.8.0.6")  # a VPN tunnel after the network
    assert set(found[-2:]) == {"172.17.0.1", "172.18.0.1"}  # docker's bridges last
    assert "127.0.0.1" not in found
    assert addresses.reachable_url("http://127.0.0.1:8000/games/3") == "http://192.168.178.23:8000/games/3"


def test_private_ranges_in_order():
    ranked = sorted(["172.20.5.9", "10.1.2.3", "192.168.1.7", "8.8.4.4"], key=lambda a: addresses._rank(a, "eth0"))
    assert ranked == ["192.168.1.7", "10.1.2.3", "172.20.5.9", "8.8.4.4"]


def test_a_new_address_from_the_router_is_picked_up(machine):
    assert addresses.lan_addresses()[0] == "192.168.178.23"
    machine["output"] = IP_OUTPUT.format(home="192.168.178.57")  # DHCP gave the laptop a new address
    machine["now"] += 30
    assert addresses.lan_addresses()[0] == "192.168.178.23"  # kept for a while: not a lookup per page
    assert machine["runs"] == 1
    machine["now"] += 31
    assert addresses.lan_addresses()[0] == "192.168.178.57"
    assert addresses.reachable_url("http://localhost:8000/games/3") == "http://192.168.178.57:8000/games/3"


def test_without_a_network_the_request_host_stays(machine, monkeypatch):
    def broken(command, **kwargs):
        raise OSError("no ip command")

    monkeypatch.setattr(addresses.subprocess, "run", broken)
    assert addresses.lan_addresses() == ()
    assert addresses.reachable_url("http://127.0.0.1:8000/games/3") == "http://127.0.0.1:8000/games/3"


def test_long_names_in_the_legend_do_not_run_into_each_other():
    from scorekeeper.core import charts

    short = charts.line_chart([("Anna & Carl", [100, 200]), ("Bert & Dora", [50, 80])])
    assert 'x="' + str(8 + 360 // 2 + 24) + '"' in short  # two short names side by side
    long_name = "Anna & Carla Maria Hoffmann-Schwarzenberg"
    svg = charts.line_chart([(long_name, [100, 200]), ("Bert & Dieter", [50, 80])])
    labels = re.findall(r'<text class="chart-label" x="(\d+)" y="(\d+)"[^>]*><title>([^<]*)</title>([^<]*)</text>', svg)
    assert [(x, title) for x, _y, title, _shown in labels] == [
        ("32", "Anna &amp; Carla Maria Hoffmann-Schwarzenberg"),
        ("32", "Bert &amp; Dieter"),
    ]
    assert labels[0][1] != labels[1][1]  # one a row
    longer = charts.line_chart([(long_name * 2, [1]), ("B", [2])])
    shown = html.unescape(re.findall(r"</title>([^<]*)</text>", longer)[0])
    assert shown.endswith("…") and len(shown) <= (360 - 32) / 6.8


# --- the share link never uses a host the app does not trust -----------------------------------------


def test_an_untrusted_host_never_makes_the_share_link():
    trusted = ["localhost", "canasta.fritz.box"]
    home = ("192.168.178.23",)
    assert (
        addresses.reachable_url("http://evil.example:8000/games/3", home, trusted)
        == "http://192.168.178.23:8000/games/3"
    )
    assert addresses.reachable_url("http://evil.example/view/x", (), trusted) == "http://localhost/view/x"
    assert addresses.reachable_url("http://canasta.fritz.box:8000/games/3", home, trusted) == (
        "http://canasta.fritz.box:8000/games/3"
    )
    assert (
        addresses.reachable_url("http://localhost:8000/games/3", home, trusted) == "http://192.168.178.23:8000/games/3"
    )


def test_the_trusted_hosts_are_this_machines(machine):
    names = addresses.own_names(["Karten.Example.org"])
    assert {"localhost", "127.0.0.1", "::1", "192.168.178.23", "10.0.0.20", "karten.example.org"} <= set(names)
    assert addresses.socket.gethostname().lower() in names
    assert not any("evil" in name for name in names)


def test_the_scoreboard_of_an_untrusted_host_is_never_rendered(client):
    game_id = start_game(client)
    response = client.get(f"/games/{game_id}", headers={"Host": "evil.example:8000"})
    assert response.status_code == 400 and "evil.example:8000/" not in response.text
    page = client.get(f"/games/{game_id}", headers={"Host": "localhost:8000"}).text
    assert "evil.example" not in page
    shown = re.search(r'class="share-url" href="(https?://[^/"]+)/', page).group(1)
    assert shown.split("//")[1].split(":")[0] in (*addresses.lan_addresses(), "localhost", "127.0.0.1")


# --- the target's label is never covered by a line or the last point ---------------------------------


def _target_label_overlaps(svg):
    """What of the drawing the target's label covers: (what, where) for each line segment or last point
    inside the label's box (measured generously: 6 px a character, 10 px above the baseline, 2 below)."""
    label = re.search(
        r'<text class="chart-label" x="([\d.]+)" y="([\d.]+)" font-size="10" text-anchor="(\w+)"[^>]*>([^<]*)</text>',
        svg,
    )
    x, y, anchor, text = float(label[1]), float(label[2]), label[3], html.unescape(label[4])
    width = 6 * len(text)
    x0 = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    box = (x0 - 1, y - 11, x0 + width + 1, y + 3)

    def inside(px, py, pad=0.0):
        return box[0] - pad <= px <= box[2] + pad and box[1] - pad <= py <= box[3] + pad

    found = []
    for points in re.findall(r'<polyline points="([^"]+)"', svg):
        coords = [tuple(map(float, pair.split(","))) for pair in points.split()]
        for (ax, ay), (bx, by) in zip(coords, coords[1:]):
            if any(inside(ax + (bx - ax) * t / 200, ay + (by - ay) * t / 200) for t in range(201)):
                found.append(("line", (ax, ay, bx, by)))
    for cx, cy, r in re.findall(r'<circle [^>]*cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', svg):
        cx, cy, r = float(cx), float(cy), float(r)
        nearest = (min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3]))
        if (cx - nearest[0]) ** 2 + (cy - nearest[1]) ** 2 <= r * r:
            found.append(("point", (cx, cy)))
    return found, box


@pytest.mark.parametrize(
    "series",
    [
        [("Anna & Carl", [1200, 2600, 3900, 5020]), ("Bert & Dora", [800, 2000, 3100, 4300])],  # just over
        [("Anna & Carl", [1200, 2600, 3900, 4990]), ("Bert & Dora", [800, 2000, 3100, 4300])],  # just under
        [("Anna & Carl", [900, 1900, 3000, 4100, 5000]), ("Bert & Dora", [700, 1500, 2600, 3800, 4960])],
        [("Anna", [5300]), ("Bert", [4800]), ("Carl", [5010])],  # one hand, three lines at the target
        [("Anna & Carl", [2500, 5100, 5200]), ("Bert & Dora", [2400, 4950, 5050])],  # crossing at both ends
    ],
)
def test_the_target_label_is_not_covered_by_the_last_point(series):
    svg = charts.line_chart(series, target=5000, target_label="target {target}")
    found, box = _target_label_overlaps(svg)
    assert found == [], (box, found)
    plot = re.search(r'<rect class="chart-plot" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', svg)
    px, py, pw, ph = map(int, plot.groups())
    assert px <= box[0] and box[2] <= px + pw and py <= box[1] + 1 and box[3] - 3 <= py + ph  # in the plot
