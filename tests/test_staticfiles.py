"""The app's files as they go out (web/staticfiles.py): comments and indentation left out of scripts
and style sheets, nothing a browser runs changed, and only the headers a file needs."""

import gzip

from scorekeeper.web import staticfiles

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
    for path, words in (("/static/style.css", b"@media print"), ("/static/app.js", b"canastaQueue")):
        plain = client.get(path)
        zipped = client.get(path, headers=GZ)
        assert gzip.decompress(zipped.data) == plain.data and words in plain.data
        with open(staticfiles.Path(client.application.static_folder) / path.rsplit("/", 1)[1], "rb") as source:
            assert len(plain.data) < len(source.read())  # the comments stay in the file, not on the wire
        for answer in (plain, zipped):
            assert answer.headers["X-Content-Type-Options"] == "nosniff" and "Accept-Encoding" in answer.headers["Vary"]
            assert "Content-Security-Policy" not in answer.headers and "X-Frame-Options" not in answer.headers
    assert "Content-Security-Policy" in client.get("/static/icon.svg").headers  # an SVG can be opened as a page
