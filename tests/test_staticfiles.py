"""The app's files as they go out (web/staticfiles.py): comments and indentation left out of scripts
and style sheets, nothing a browser runs changed, and only the headers a file needs."""

import gzip
import re

import pytest

from scorekeeper.web import staticfiles
from tests.helpers import start_game

GZ = {"Accept-Encoding": "gzip, deflate"}


def test_a_script_goes_without_its_comment_lines_and_indentation():
    script = '// what it does\nfunction f(a) {\n  // why\n  return a + "//not a comment";  // kept\n}\n'
    assert staticfiles.slim_script(script) == 'function f(a) {\nreturn a + "//not a comment";  // kept\n}\n'


def test_a_script_with_text_over_several_lines_goes_whole():
    for script in ("const t = `one\n  // two\n`;\n", 'const s = "one \\\n  // two";\n'):
        assert staticfiles.slim_script(script) == script


def test_a_comment_line_that_ends_a_block_comment_is_kept():
    assert staticfiles.slim_script("/* a\n// b */\nx();\n") == "/* a\n// b */\nx();\n"


def test_a_style_sheet_goes_without_its_comments_strings_kept_whole():
    css = '/* top */\n.a {\n  color: red; /* why */\n  content: "/* not a comment */";\n}\n\n'
    assert staticfiles.slim_style(css) == '.a {\ncolor: red;\ncontent: "/* not a comment */";\n}\n'


def test_scripts_and_styles_go_slimmed_and_gzipped_with_the_headers_they_need(client):
    for path, words in (("/static/style.css", b"@media print"), ("/static/app.js", b"export const queue")):
        plain = client.get(path)
        zipped = client.get(path, headers=GZ)
        assert gzip.decompress(zipped.data) == plain.data and words in plain.data
        with open(staticfiles.Path(client.application.static_folder) / path.rsplit("/", 1)[1], "rb") as source:
            assert len(plain.data) < len(source.read())  # the comments stay in the file, not on the wire
        for answer in (plain, zipped):
            assert answer.headers["X-Content-Type-Options"] == "nosniff" and "Accept-Encoding" in answer.headers["Vary"]
            assert "Content-Security-Policy" not in answer.headers and "X-Frame-Options" not in answer.headers
    assert "Content-Security-Policy" in client.get("/static/icon.svg").headers  # an SVG can be opened as a page


def test_a_comment_at_the_end_of_a_line_goes_only_when_it_surely_is_one():
    assert staticfiles.slim_script("x = 1;  // why\n") == "x = 1;\n"
    assert staticfiles.slim_script("s = 'it\\'s' + \"a\"; // why\n") == "s = 'it\\'s' + \"a\";\n"
    for kept in ('s = "a // b";\n', "r = /a/; // c\n", "s = 'a' + '// b';\n", "x = y / 2; // z\n"):
        assert staticfiles.slim_script(kept) == kept


def test_the_hand_forms_modules_go_in_one_file(client):
    """The hand form's eight modules (static/hand/) in one script, in the order the browser runs
    them, each in a function of its own; the pages load it instead of main.js. A module in a form the
    bundle does not know fails here (the pages would then load the modules one by one)."""
    script = staticfiles.bundle(staticfiles.Path(client.application.static_folder) / "hand")
    order = re.findall(r"^const __hand_(\w+) = ", script, re.M)
    assert sorted(order) == sorted(
        p.stem for p in (staticfiles.Path(client.application.static_folder) / "hand").glob("*.js")
    )
    assert order[-1] == "main" and order.index("text") < order.index("entry") < order.index("form")
    # the one import left: app.js, from the address the pages load it from (one instance of it)
    assert re.findall(r"^\s*(?:import|export)\b.*$", script, re.M) == [
        'import * as __static_app from "/static/app.js";'
    ]
    answer = client.get("/hand.js", headers=GZ)
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert b"__hand_main" in gzip.decompress(answer.data)
    assert client.get("/hand.js", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    game_id = start_game(client)
    for page in (f"/games/{game_id}", f"/games/{game_id}/hands/new"):
        text = client.get(page).text
        assert '<script type="module" src="/hand.js"></script>' in text and "hand/main.js" not in text
        assert '<script type="module" src="/static/app.js"></script>' in text


def test_modules_in_a_form_the_bundle_does_not_know_are_not_bundled(tmp_path):
    (tmp_path / "main.js").write_text('import * as all from "./x.js";\n')
    with pytest.raises(staticfiles.NotBundled):
        staticfiles.bundle(tmp_path)
    (tmp_path / "main.js").write_text('import { y } from "./x.js";\n')
    (tmp_path / "x.js").write_text("export let y = 1;\n")  # a live binding: not a copy
    with pytest.raises(staticfiles.NotBundled):
        staticfiles.bundle(tmp_path)


def test_an_import_from_the_folder_above_is_imported_once_from_its_address(tmp_path):
    """``import { a } from "../app.js";`` in a hand module: the bundle imports app.js at its top from
    where the pages load it (one module, one instance: the page's and the bundle's are the same), and
    each module that imports from it takes its names from there."""
    hand = tmp_path / "hand"
    hand.mkdir()
    (tmp_path / "app.js").write_text("export const queue = {};\nexport function text() {}\n")
    (hand / "main.js").write_text('import { x } from "./x.js";\nimport { queue } from "../app.js";\nx(queue);\n')
    (hand / "x.js").write_text('import { text as pageText } from "../app.js";\nexport function x() { pageText(); }\n')
    script = staticfiles.bundle(hand, static_url="/files/")
    lines = script.splitlines()
    assert lines[0] == 'import * as __static_app from "/files/app.js";'
    assert sum(line.startswith("import") for line in lines) == 1
    assert "const { text: pageText } = __static_app;" in script and "const { queue } = __static_app;" in script
    assert script.index("const { queue } = __static_app;") > script.index("const __hand_main")
    (hand / "x.js").write_text('import { missing } from "../app.js";\nexport function x() {}\n')
    with pytest.raises(staticfiles.NotBundled, match="missing"):
        staticfiles.bundle(hand)


def test_the_service_worker_keeps_every_file_under_a_name_made_from_them(client, tmp_path):
    """The worker's list of files is made from static/: every script, style sheet, icon and hand
    module, and the pages; its cache's name changes when a file does."""
    static = staticfiles.Path(client.application.static_folder)
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    shell = re.search(r"^var SHELL = (\[.*\]);$", worker.text, re.M).group(1)
    listed = set(re.findall(r'"([^"]+)"', shell))
    wanted = {"/", "/offline", "/manifest.webmanifest", "/hand.js"}
    for path in static.rglob("*"):
        if path.suffix in (".js", ".css") and path.name != "sw.js" or path.name.startswith("icon"):
            wanted.add("/static/" + path.relative_to(static).as_posix())
    assert listed == wanted and "/static/hand/panel.js" in listed and "/static/grid.js" in listed
    assert client.get("/sw.js", headers={"If-None-Match": worker.headers["ETag"]}).status_code == 304
    # a copy of static/ with one file changed: another cache name, the same list
    copy = tmp_path / "static"
    for path in static.rglob("*"):
        if path.is_file():
            (copy / path.relative_to(static)).parent.mkdir(parents=True, exist_ok=True)
            (copy / path.relative_to(static)).write_bytes(path.read_bytes())
    first = staticfiles.service_worker_script(copy)
    assert first == worker.text and staticfiles.service_worker_script(copy) == first
    (copy / "hand" / "net.js").write_text((copy / "hand" / "net.js").read_text() + "// changed\n")
    second = staticfiles.service_worker_script(copy)
    cache = re.compile(r'^var CACHE = "(canasta-\w+)";$', re.M)
    assert cache.search(first).group(1) != cache.search(second).group(1)
    assert re.search(r"^var SHELL = .*$", first, re.M).group(0) == re.search(r"^var SHELL = .*$", second, re.M).group(0)
    # static/sw.js itself stays a script that runs as it is: its own list, the pages
    assert 'var SHELL = ["/", "/offline", "/manifest.webmanifest", "/hand.js"];' in (static / "sw.js").read_text()
