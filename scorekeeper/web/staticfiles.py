"""The app's own files (``static/``) as they go out to a phone: a script or a style sheet without
its comments and indentation, gzipped when the phone takes gzip, each made once per version of the
file, with only the headers a file needs.

The files stay as they are written, comments and all (a reader's copy); what goes over the network
is what the browser runs. The first visit of the score sheet loads a dozen of them, so their
comments and their headers were most of its weight (docs/performance.md, page weight).

Only what cannot change a program is left out: in a script, whole lines that are a ``//`` comment
and the spaces that start a line (a file with a template literal or a string running over several
lines is sent whole); in a style sheet, ``/* */`` comments outside strings and the spaces that
start a line, and empty lines in both."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from flask import Response, current_app, request, url_for

SCRIPT = "text/javascript"
STYLE = "text/css"
# headers that mean something for a page, not for a script or a style sheet it loads
PAGE_ONLY_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "Content-Disposition", "Accept-Ranges")
_CSS_COMMENT = re.compile(r"(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')|/\*.*?\*/", re.S)
KEPT = "scorekeeper_static_files"


def slim_script(text: str) -> str:
    """A script without its whole-line ``//`` comments and its lines' leading spaces."""
    lines = text.splitlines()
    if any(line.count("`") % 2 or line.endswith("\\") for line in lines):
        return text  # a template literal or a string over several lines: sent as it is
    kept = []
    for line in lines:
        code = line.strip()
        if not code or (code.startswith("//") and "*/" not in code):
            continue
        kept.append(_without_end_comment(code))
    return "\n".join(kept) + "\n"


def _without_end_comment(code: str) -> str:
    """A line without the ``//`` comment at its end, when what comes before it has no ``/`` at all
    (so no regular expression, division or other comment) and no template literal, and ends outside
    every string; else the line as it is."""
    at = code.find(" //")
    if at < 0 or "/" in code[:at] or "`" in code[:at] or "*/" in code[at:]:
        return code
    quote = None
    escaped = False
    for char in code[:at]:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif quote is None and char in "'\"":
            quote = char
        elif char == quote:
            quote = None
    return code[:at].rstrip() if quote is None else code


def slim_style(text: str) -> str:
    """A style sheet without its comments (strings kept whole) and its lines' leading spaces."""
    text = _CSS_COMMENT.sub(lambda match: match.group(1) or "", text)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip()) + "\n"


SLIMMERS = {SCRIPT: slim_script, STYLE: slim_style}


def _made(path: Path, gzipped: bool) -> bytes | None:
    """The file as it goes out (slimmed, and gzipped when asked), made once per version of the file."""
    try:
        version = (str(path), path.stat().st_mtime_ns, gzipped)
    except OSError:
        return None
    kept: dict[tuple, bytes] = current_app.extensions.setdefault(KEPT, {})
    data = kept.get(version)
    if data is None:
        mimetype = "text/css" if path.suffix == ".css" else "text/javascript" if path.suffix == ".js" else ""
        data = path.read_bytes()
        if mimetype in SLIMMERS:
            data = SLIMMERS[mimetype](data.decode()).encode()
        if gzipped:
            data = gzip.compress(data, 9, mtime=0)
        kept[version] = data
    return data


def without_page_headers(response: Response) -> Response:
    """A script's or a style sheet's answer without the headers that only mean something for a page."""
    for name in PAGE_ONLY_HEADERS:
        response.headers.pop(name, None)
    return response


def finish(response: Response, gzipped: bool) -> Response:
    """A static file's answer (200) as it goes out: slimmed, gzipped when asked, its page-only headers left out."""
    path = Path(current_app.static_folder) / (request.view_args or {}).get("filename", "")
    slimmed = response.mimetype in SLIMMERS
    if not (slimmed or gzipped):
        return response
    data = _made(path, gzipped)
    if data is None:
        return response
    response.direct_passthrough = False
    response.set_data(data)
    if slimmed:
        without_page_headers(response)
        response.headers.pop("Last-Modified", None)  # the ETag says which version it is
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response


# --- the hand form's modules in one file --------------------------------------------------------------

HAND_FOLDER = "hand"  # static/hand/: main.js imports the others
_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w-]+)\.js";\s*(//.*)?$')
# a module of static/ itself (``import { queue } from "../app.js";``): imported by the bundle from its
# address, the one the pages load it from, so that the page and the bundle share one instance of it
_OUTSIDE = re.compile(r'^import \{([^}]*)\} from "\.\./([\w-]+)\.js";\s*(//.*)?$')
_EXPORT = re.compile(
    r"^export (?=(?:async )?function\b|const\b|class\b)(?:async )?(?:function\*?|const|class)\s+([\w$]+)"
)
_BUNDLES: dict[tuple, tuple] = {}  # the hand bundle by the version of its files (_hand_bundle)


class NotBundled(ValueError):
    """A module in a form the bundle does not know: the modules are loaded one by one instead."""


def _names(imported: str) -> list[str]:
    """``a, b as c`` as the names a destructuring takes: ``a``, ``b: c``."""
    return [part.strip().replace(" as ", ": ") for part in imported.split(",") if part.strip()]


def _exports(path: Path) -> list[str]:
    return [m.group(1) for m in map(_EXPORT.match, path.read_text().splitlines()) if m]


def _check(importer: str, names: list[str], module: str, exports: list[str]) -> None:
    missing = [n.split(":")[0] for n in names if n.split(":")[0] not in exports]
    if missing:
        raise NotBundled(f"{importer}.js imports {', '.join(missing)} that {module}.js does not export")


def _module_parts(folder: Path, name: str, outside: dict[str, list[str]]) -> tuple[list, list[str], list[str]]:
    """One module of the folder read for the bundle: what it imports (names, module), what it exports
    and its body without its import and export words; a module of the folder above it imports from
    is read for its exports into ``outside`` once."""
    imports, exports, body = [], [], []
    for line in (folder / f"{name}.js").read_text().splitlines():
        imported, exported, above = _IMPORT.match(line), _EXPORT.match(line), _OUTSIDE.match(line)
        if imported:
            imports.append((_names(imported.group(1)), imported.group(2)))
        elif above:
            module, names = above.group(2), _names(above.group(1))
            if module not in outside:
                outside[module] = _exports(folder.parent / f"{module}.js")
            _check(name, names, f"../{module}", outside[module])
            body.insert(0, f"const {{ {', '.join(names)} }} = __static_{module.replace('-', '_')};")
        elif exported:
            exports.append(exported.group(1))
            body.append(line[len("export ") :])
        elif re.match(r"\s*(import|export)\b|.*\bimport\s*[.(]|.*__hand_|.*__static_", line):
            raise NotBundled(f"{name}.js: {line.strip()}")
        else:
            body.append(line)
    return imports, exports, body


def bundle(folder: Path, entry: str = "main", static_url: str = "/static/") -> str:
    """The hand form's ES modules as one module, each in a function of its own (its names stay its
    own), in the order the browser runs them (a module after those it imports); an import becomes the
    names taken from its module's function, an export the names it gives back. Only the forms the
    modules use are taken (``import { a, b } from "./x.js";``, ``export function|const|class``):
    anything else raises NotBundled, and the page loads the modules one by one as before.

    A module of the folder above (``import { a } from "../app.js";``) stays a module of its own: the
    bundle imports it at its top from ``static_url`` (where the folder above is served, as the pages
    load it: one address, one instance of the module) and each module takes its names from it."""
    modules: dict[str, tuple[list[tuple[list[str], str]], list[str], list[str]]] = {}
    outside: dict[str, list[str]] = {}  # a module of the folder above: its exports

    def read(name: str, path: tuple[str, ...]) -> None:
        if name in modules:
            return
        if name in path:
            raise NotBundled(f"{name}.js imports itself through {' -> '.join(path)}")
        imports, exports, body = _module_parts(folder, name, outside)
        for _, module in imports:
            read(module, (*path, name))
        modules[name] = (imports, exports, body)

    read(entry, ())
    out = [f'import * as __static_{m.replace("-", "_")} from "{static_url}{m}.js";' for m in outside]
    for name, (imports, exports, body) in modules.items():
        out.append(f"const __hand_{name} = (() => {{")
        for names, module in imports:
            _check(name, names, module, modules[module][1])
            out.append(f"const {{ {', '.join(names)} }} = __hand_{module};")
        out += body
        out.append(f"return {{ {', '.join(exports)} }};")
        out.append("})();")
    return "\n".join(out) + "\n"


def _hand_bundle() -> tuple:
    """The hand form's modules as one script (slimmed) and gzipped, made once per version of its files
    (and of the modules of static/ they import) and shared by every app of the process (the tests
    make hundreds); the script is None when they cannot be bundled."""
    static = Path(current_app.static_folder)
    folder = static / HAND_FOLDER
    files = sorted(folder.glob("*.js")) + sorted(static.glob("*.js"))
    version = (current_app.static_url_path, *((str(path), path.stat().st_mtime_ns) for path in files))
    kept = _BUNDLES.get(version)
    if kept is None:
        try:
            made = slim_script(bundle(folder, static_url=current_app.static_url_path + "/")).encode()
        except (NotBundled, OSError):
            made = None
        kept = (made, gzip.compress(made, 9, mtime=0) if made else None)
        _BUNDLES.clear()  # only the files' newest version is kept
        _BUNDLES[version] = kept
    return kept


def hand_script_url() -> str:
    """Where the pages load the hand form's script from: the modules in one file, or main.js (which
    imports the others) when they cannot be bundled."""
    if _hand_bundle()[0] is None:
        return url_for("static", filename=f"{HAND_FOLDER}/main.js")
    return url_for("appfiles.hand_script")


def hand_script() -> Response:
    """The hand form's modules in one file (a first visit of the score sheet: one request where
    there were eight, compressed together)."""
    plain, zipped = _hand_bundle()
    if plain is None:
        return Response("the hand form's modules cannot be bundled; load static/hand/main.js\n", 404)
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "").lower()
    response = Response(zipped if gzipped else plain, mimetype=SCRIPT)
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(hashlib.sha256(plain).hexdigest()[:20])
    return response.make_conditional(request)


# --- the service worker, with the list of files it keeps made from the files ---------------------------

WORKER = "sw.js"
# the pages and files the worker keeps besides static/'s scripts, style sheets and icons
SHELL_PAGES = ("/", "/offline", "/manifest.webmanifest", "/hand.js")
_SHELL_LINE = re.compile(r"^var SHELL = \[[^\]\n]*\];$", re.M)
_CACHE_LINE = re.compile(r'^var CACHE = "[^"\n]*";$', re.M)
_WORKER = "scorekeeper_service_worker"


def shell_files(static: Path) -> list[Path]:
    """The files of static/ the service worker keeps on install: every script and style sheet (the
    hand form's modules too), and the icons; not the worker itself."""
    return sorted(
        path
        for path in static.rglob("*")
        if path.is_file()
        and path.name != WORKER
        and (path.suffix in (".js", ".css") or (path.name.startswith("icon") and path.suffix in (".png", ".svg")))
    )


def service_worker_script(static: Path, static_url: str = "/static/") -> str:
    """static/sw.js with its list of files (SHELL) and its cache's name (CACHE) filled in: the pages,
    and every file shell_files() finds at its address; a name made from the contents of those files,
    the manifest and the worker itself, so that a changed file makes a new cache (the old one is
    dropped when the new worker takes over)."""
    script = (static / WORKER).read_text()
    files = shell_files(static)
    urls = [*SHELL_PAGES, *(static_url + path.relative_to(static).as_posix() for path in files)]
    digest = hashlib.sha256()
    for path in [*files, static / "manifest.webmanifest", static / WORKER]:
        digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    shell = "var SHELL = [" + ", ".join(f'"{url}"' for url in urls) + "];"
    cache = f'var CACHE = "canasta-{digest.hexdigest()[:12]}";'
    script, shells = _SHELL_LINE.subn(lambda _: shell, script, count=1)
    script, caches = _CACHE_LINE.subn(lambda _: cache, script, count=1)
    if not (shells and caches):
        raise ValueError(f"static/{WORKER} has no one-line 'var SHELL = [...];' or 'var CACHE = \"...\";' to fill in")
    return script


def service_worker() -> Response:
    """The service worker as service_worker_script() makes it, once per version of the files."""
    static = Path(current_app.static_folder)
    files = [*shell_files(static), static / "manifest.webmanifest", static / WORKER]
    version = tuple((str(path), path.stat().st_mtime_ns) for path in files)
    kept = current_app.extensions.get(_WORKER)
    if kept is None or kept[0] != version:
        kept = current_app.extensions[_WORKER] = (
            version,
            service_worker_script(static, current_app.static_url_path + "/"),
        )
    response = Response(kept[1], mimetype=SCRIPT)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(hashlib.sha256(kept[1].encode()).hexdigest()[:20])
    return response.make_conditional(request)
