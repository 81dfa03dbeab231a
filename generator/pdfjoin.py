"""Join the PDF chunks irata's reportlab backend wrote into one file, at the level of bytes.

Every chunk is a classic PDF 1.4 file as reportlab writes it (objects ``N 0 obj ... endobj``,
one cross-reference table, no object streams). The joined file is the chunks' objects
renumbered, one catalog, one page tree and the build's Info. An object that is the same in
several chunks (the same font, embedded alike because every chunk is seeded with the same
characters; the same form, such as a deck's back) is written once: objects are compared by
their bytes with every reference replaced by the referenced object's own digest, so equal
trees are found whatever numbers they had.

Why not pikepdf (qpdf): joining 2,000 pages that way holds every page's objects in qpdf's
memory (about 30 KB a page) and takes seconds, where ``--watch`` has a fraction of one. Only
files irata wrote are joined (``generator.incremental`` checks each chunk's keyed digest
first); anything that does not read as one raises ``ValueError``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

REF = re.compile(rb"(\d{1,9}) 0 R\b")
HEADER_END = b"1 0 obj\n"


@dataclass
class Part:
    """One chunk, read: its objects but its catalog, page tree and Info, with each object's
    digest (equal digests: equal objects) and its pages in order."""

    header: bytes
    # number -> (its dictionary, where references are, and its stream, from "stream" on;
    # held as the file's bytes: a long deck's chunks hold tens of thousands of objects)
    objects: dict[int, tuple[bytes, bytes]]
    pages: list[int]
    digests: dict[int, str] = field(default_factory=dict)

    def outline(self) -> Part:
        """The part without its objects' bytes: enough to number them."""
        return Part(self.header, {n: (b"", b"") for n in self.objects}, self.pages,
                    self.digests)


def _int(data: bytes, at: int) -> int:
    m = re.compile(rb"\s*(\d{1,12})").match(data, at)
    if m is None:
        raise ValueError("a number was expected")
    return int(m[1])


def read_part(data: bytes, digests: bool = True) -> Part:
    """A chunk's objects (see ``Part``); ValueError for anything that is not such a file.
    Without ``digests`` (known from an outline made where the chunk was rendered), its
    objects' digests are left out."""
    if not data.startswith(b"%PDF-1.") or len(data) < 64:
        raise ValueError("not a PDF")
    sx = data.rfind(b"startxref")
    if sx < 0:
        raise ValueError("no startxref")
    xref = _int(data, sx + 9)
    if not data.startswith(b"xref\n0 ", xref):
        raise ValueError("no classic cross-reference table")
    line_end = data.index(b"\n", xref + 5)
    count = int(data[xref + 7:line_end])
    if not 2 <= count <= 10_000_000:
        raise ValueError("a cross-reference table of an unlikely size")
    offsets: dict[int, int] = {}
    at = line_end + 1
    for n in range(count):
        entry = data[at:at + 20]
        if len(entry) != 20:
            raise ValueError("a short cross-reference table")
        if entry[17:18] == b"n":
            offsets[n] = int(entry[:10])
        at += 20
    trailer = data[at:sx]
    root_m = re.search(rb"/Root (\d+) 0 R", trailer)
    info_m = re.search(rb"/Info (\d+) 0 R", trailer)
    if root_m is None:
        raise ValueError("no /Root")
    root = int(root_m[1])
    info = int(info_m[1]) if info_m else -1
    ends = sorted(offsets.values()) + [xref]
    next_of = {o: ends[i + 1] for i, o in enumerate(ends[:-1])}
    bodies: dict[int, bytes] = {}
    for n, off in offsets.items():
        head = b"%d 0 obj\n" % n
        if not data.startswith(head, off):
            raise ValueError(f"object {n} is not where the table says")
        body = data[off + len(head):next_of[off]].rstrip()
        if not body.endswith(b"endobj"):
            raise ValueError(f"object {n} does not end")
        bodies[n] = body[:-6].rstrip(b"\n")
    m = re.search(rb"/Pages (\d+) 0 R", bodies.get(root, b""))
    if m is None:
        raise ValueError("no page tree")
    tree = int(m[1])
    kids_m = re.search(rb"/Kids \[([^\]]*)\]", bodies.get(tree, b""))
    if kids_m is None or b"/Kids [" in bodies[tree][kids_m.end():]:
        raise ValueError("a page tree of more than one level")
    pages = [int(k) for k in REF.findall(kids_m[1])]
    objects: dict[int, tuple[bytes, bytes]] = {}
    for n, body in bodies.items():
        if n in (root, tree, info):
            continue
        cut = body.find(b">>\nstream\n") if body.startswith(b"<<") else -1
        head, stream = (body, b"") if cut < 0 else (body[:cut + 3], body[cut + 3:])
        for m in REF.finditer(head):
            if int(m[1]) not in bodies:
                raise ValueError(f"object {n} refers to {m[1].decode()}, not in the file")
        objects[n] = (head, stream)
    del bodies
    part = Part(data[:data.index(HEADER_END)] if HEADER_END in data else b"%PDF-1.4\n",
                objects, pages)
    if digests:
        _digests(part, tree)
    return part


def _digests(part: Part, tree: int) -> None:
    """Each object's digest: its bytes with references replaced by the referred objects'
    digests (the page tree by a mark of its own). A page is never merged with another, and
    an object in a cycle keeps a digest of its own."""
    pages = {p: i for i, p in enumerate(part.pages)}
    visiting: set[int] = set()
    for n in sorted(part.objects):
        _dig(part, tree, pages, visiting, n)


def _dig(part: Part, tree: int, pages: dict[int, int], visiting: set[int], n: int) -> str:
    # (a function of the module's, not one nested in ``_digests``: a nested one that calls
    # itself holds itself, and the whole part with it, in a cycle that a build, its collector
    # paused, would keep for every chunk joined)
    done = part.digests
    if n == tree:
        return "tree"
    if n in done:
        return done[n]
    obj = part.objects.get(n)
    if obj is None:
        return f"#{n}"
    if n in visiting:
        return f"cycle#{n}"
    visiting.add(n)
    head, stream = obj
    h = hashlib.blake2b(digest_size=16)
    if n in pages:
        h.update(b"page%d" % pages[n])
    at = 0
    for m in REF.finditer(head):
        h.update(head[at:m.start()])
        h.update(b"\x00" + _dig(part, tree, pages, visiting, int(m[1])).encode() + b"\x00")
        at = m.end()
    h.update(head[at:])
    h.update(stream)
    visiting.discard(n)
    done[n] = h.hexdigest() + (f"@{n}" if n in pages else "")
    return done[n]


def pdf_string(text: str) -> bytes:
    """A PDF text string: literal for printable ASCII, else UTF-16BE with its mark, as hex."""
    if all(32 <= ord(ch) < 127 for ch in text):
        return b"(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") \
            .encode("ascii") + b")"
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


# a part's objects as written, by its name: the numbers it was written with, the bytes and
# each object's place in them
Blocks = dict[str, tuple[tuple[int, ...], bytes, list[int]]]


def join_parts(parts: list[Part], readers: Sequence[Callable[[], Part]], info: dict[str, str],
               out: BinaryIO, names: Sequence[str] = (), blocks: Blocks | None = None) -> None:
    """The parts as one PDF written to ``out``: catalog 1, page tree 2, Info 3, then each
    part's objects (each distinct object once), its pages in order. ``parts`` may be
    outlines (``Part.outline``): ``readers`` give each part whole when it is written.
    ``blocks`` (with each part's name in ``names``): the parts' objects as an earlier join
    wrote them; a part whose objects get the same numbers again is written as it was then,
    neither read nor renumbered (a watch's rebuild joins 140 parts for one that changed)."""
    header = parts[0].header if parts else b"%PDF-1.4\n"
    offsets: list[int] = []
    size = len(header)
    file_id = hashlib.blake2b(digest_size=16)
    out.write(header)

    def emit(*body: bytes) -> None:
        nonlocal size
        offsets.append(size)
        for chunk in (b"%d 0 obj\n" % len(offsets), *body, b"\nendobj\n"):
            out.write(chunk)
            file_id.update(chunk)
            size += len(chunk)

    numbers: dict[str, int] = {}
    next_number = 4
    kids: list[int] = []
    plans: list[tuple[Part, dict[int, int], list[int]]] = []
    for part in parts:
        local: dict[int, int] = {}
        fresh: list[int] = []
        for n in sorted(part.objects):
            d = part.digests[n]
            if d not in numbers:
                numbers[d] = next_number
                next_number += 1
                fresh.append(n)
            local[n] = numbers[d]
        kids.extend(local[p] for p in part.pages)
        plans.append((part, local, fresh))
    pages = b" ".join(b"%d 0 R" % k for k in kids)
    emit(b"<<\n/PageMode /UseNone /Pages 2 0 R /Type /Catalog\n>>")
    emit(b"<<\n/Count %d /Kids [ %s ] /Type /Pages\n>>" % (len(kids), pages))
    emit(b"<<\n" + b" ".join(b"/" + k.encode("ascii") + b" " + (
        v.encode("ascii") if v.startswith("/") else pdf_string(v))
        for k, v in sorted(info.items())) + b"\n>>")
    for k, (reader, (_, local, fresh)) in enumerate(zip(readers, plans, strict=True)):
        name = names[k] if blocks is not None and k < len(names) else None
        numbered = (len(offsets), *local.values())
        hit = blocks.get(name) if blocks is not None and name is not None else None
        if hit is None or hit[0] != numbered:
            hit = (numbered, *_block(reader(), local, fresh, len(offsets)))
            if blocks is not None and name is not None:
                blocks[name] = hit
        _, block, places = hit
        offsets.extend(size + at for at in places)
        out.write(block)
        file_id.update(block)
        size += len(block)
    fid = file_id.hexdigest().encode("ascii")
    count = len(offsets) + 1
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % count)
    out.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<<\n/ID \n[<%s><%s>]\n/Info 3 0 R\n/Root 1 0 R\n/Size %d\n>>\n"
              b"startxref\n%d\n%%%%EOF\n" % (fid, fid, count, size))


def _block(part: Part, local: dict[int, int], fresh: list[int],
           before: int) -> tuple[bytes, list[int]]:
    """The ``fresh`` objects of ``part`` renumbered by ``local`` as written after ``before``
    objects: their bytes and each one's place in them."""
    def renumber(m: re.Match[bytes]) -> bytes:
        return b"%d 0 R" % local.get(int(m[1]), 2)  # the part's page tree: the file's

    pieces: list[bytes] = []
    places: list[int] = []
    at = 0
    for k, n in enumerate(fresh):
        head, stream = part.objects[n]
        places.append(at)
        for piece in (b"%d 0 obj\n" % (before + k + 1), REF.sub(renumber, head), stream,
                      b"\nendobj\n"):
            pieces.append(piece)
            at += len(piece)
    return b"".join(pieces), places
