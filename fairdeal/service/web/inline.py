"""One self-contained HTML page from a page and its ES modules and style sheet: for the verify page, which a
player saves and opens from disk (a browser does not load module scripts from file:// addresses).

A page marks what to inline with `data-inline`:
    <link rel="stylesheet" href="/assets/css/x.css" data-inline>
    <script type="module" src="/assets/js/entry.js" data-inline></script>
Each module (the entry and everything it imports, depth first) becomes one function scope in a single inline
module script: `import {a, b as c} from "./m.js"` reads `a` and `c` from m's scope object, and m's exports are
what that scope returns. The modules keep to the forms below; anything else is refused, so a change that this
inliner cannot carry fails loudly (and the offline test) instead of shipping a broken page:
    import { names } from "./relative.js";            export function / async function / const / let / class NAME
                                                          export { names };
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ASSETS = "/assets/"
_SCRIPT_TAG = re.compile(r'<script type="module" src="([^"]+)" data-inline></script>')
_STYLE_TAG = re.compile(r'<link rel="stylesheet" href="([^"]+)" data-inline>')
_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"(\.{1,2}/[^"]+)";?[ \t]*$', re.M)
_EXPORT_DECL = re.compile(r"^export\s+((?:async\s+)?function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)", re.M)
_EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\};?[ \t]*$", re.M)
_LEFTOVER = re.compile(r"^\s*(import|export)\b", re.M)


class InlineError(ValueError):
    """A page or module this inliner cannot make self-contained; the message names the file and the line."""


@dataclass(frozen=True)
class InlinedPage:
    html: str
    scripts: tuple[str, ...]  # the inline scripts' texts, for the page's Content-Security-Policy hashes
    styles: tuple[str, ...]


def _names(spec: str) -> list[tuple[str, str]]:
    """'a, b as c' -> [("a", "a"), ("b", "c")]: (exported name, local name)."""
    out = []
    for part in spec.split(","):
        words = part.split()
        if not words:
            continue
        if len(words) == 1:
            out.append((words[0], words[0]))
        elif len(words) == 3 and words[1] == "as":
            out.append((words[0], words[2]))
        else:
            raise InlineError(f"cannot read the import/export list {spec.strip()!r}")
    return out


class _Bundle:
    def __init__(self, static_root: Path):
        self.root = static_root.resolve()
        self.order: list[PurePosixPath] = []  # modules, dependencies first
        self.bodies: dict[PurePosixPath, str] = {}
        self.exports: dict[PurePosixPath, list[str]] = {}
        self._visiting: set[PurePosixPath] = set()

    def var(self, path: PurePosixPath) -> str:
        return "__module_" + re.sub(r"\W", "_", str(path))

    def file(self, path: PurePosixPath) -> Path:
        full = (self.root / path).resolve()
        if self.root not in full.parents:
            raise InlineError(f"{path} is outside the static folder")
        return full

    def add(self, path: PurePosixPath) -> None:
        if path in self.bodies:
            return
        if path in self._visiting:
            raise InlineError(f"{path}: circular import")
        self._visiting.add(path)
        text = self.file(path).read_text(encoding="utf-8")

        def rewrite_import(m: re.Match) -> str:
            dep = PurePosixPath(*_normal((path.parent / m.group(2)).parts))
            self.add(dep)
            pairs = ", ".join(name if name == local else f"{name}: {local}" for name, local in _names(m.group(1)))
            return f"const {{ {pairs} }} = {self.var(dep)};"

        body = _IMPORT.sub(rewrite_import, text)
        exported = [m.group(2) for m in _EXPORT_DECL.finditer(body)]
        body = _EXPORT_DECL.sub(lambda m: f"{m.group(1)} {m.group(2)}", body)
        for m in _EXPORT_LIST.finditer(body):
            for name, local in _names(m.group(1)):
                if name != local:
                    raise InlineError(f"{path}: 'export {{ a as b }}' is not supported")
                exported.append(name)
        body = _EXPORT_LIST.sub("", body)
        left = _LEFTOVER.search(body)
        if left:
            line = body[: left.start()].count("\n") + 1
            raise InlineError(f"{path}:{line}: an import or export form the inliner does not know")
        self._visiting.discard(path)
        self.bodies[path] = body
        self.order.append(path)
        self.exports[path] = exported

    def script(self) -> str:
        parts = []
        for path in self.order:
            names = ", ".join(self.exports[path])
            parts.append(
                f"// ---- {path}\nconst {self.var(path)} = (() => {{\n{self.bodies[path]}\n"
                f"return {{ {names} }};\n}})();\n"
            )
        return "\n" + "".join(parts)


def _normal(parts: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for p in parts:
        if p == "..":
            if not out:
                raise InlineError("an import climbs out of the static folder")
            out.pop()
        elif p not in (".", ""):
            out.append(p)
    return out


def _asset(href: str) -> PurePosixPath:
    if not href.startswith(ASSETS):
        raise InlineError(f"{href} is not under {ASSETS}")
    return PurePosixPath(href[len(ASSETS) :])


_CACHE: dict[tuple, InlinedPage] = {}


def inline_page(page: Path, static_root: Path) -> InlinedPage:
    """The page with every data-inline style sheet and module script written into it (cached while no file
    under the static folder or the page itself changes)."""
    stamp = (
        str(page),
        page.stat().st_mtime_ns,
        max((p.stat().st_mtime_ns for p in static_root.rglob("*") if p.is_file()), default=0),
    )
    hit = _CACHE.get(stamp)
    if hit is not None:
        return hit
    html = page.read_text(encoding="utf-8")
    scripts: list[str] = []
    styles: list[str] = []

    def script(m: re.Match) -> str:
        bundle = _Bundle(static_root)
        bundle.add(_asset(m.group(1)))
        text = bundle.script()
        if "</script" in text.lower():
            raise InlineError(f"{m.group(1)}: a module contains '</script', which would end the inline script")
        scripts.append(text)
        return f'<script type="module">{text}</script>'

    def style(m: re.Match) -> str:
        path = _asset(m.group(1))
        text = (static_root / path).read_text(encoding="utf-8")
        if "</style" in text.lower():
            raise InlineError(f"{path}: contains '</style'")
        styles.append(text)
        return f"<style>{text}</style>"

    html = _STYLE_TAG.sub(style, html)
    html = _SCRIPT_TAG.sub(script, html)
    out = InlinedPage(html, tuple(scripts), tuple(styles))
    _CACHE.clear()
    _CACHE[stamp] = out
    return out
