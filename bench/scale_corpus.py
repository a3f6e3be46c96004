"""A scaled benchmark corpus generated from corpus/, reproducibly from a seed.

    python bench/scale_corpus.py --articles 1000 10000 [--seed 20240601] [--out bench/scaled]

writes ``bench/scaled/n<N>_s<SEED>/`` with N articles and a hidden ``.manifest.json``
(parameters, sizes, a digest of every file; hidden, so ``specextract run`` skips it). A
folder whose manifest matches the parameters and this script's own hash is kept as it is,
so a second call costs nothing.

Each article i is built from its own ``random.Random(f"{seed}/{i}")``, so the first 1,000
articles of the 10,000-article corpus are the 1,000-article corpus: the two sizes have the
same make-up and memory at 10k can be compared with memory at 1k.

How an article is made (so that no cache keyed on text, numbers or chip names can cheat):

* an anchor article is drawn from corpus/ (uniformly, so scripts and formats keep the
  corpus's proportions); the new article gets the anchor's extension;
* ``.txt``/``.md``: the anchor's title, then paragraphs drawn from the anchor and 1-3 other
  articles of the same script group (zh-Hans, zh-Hant, en, mixed), shuffled, until a target
  size drawn from a log-normal distribution (median ~2.2 KB, clamped to 0.4-24 KB) is
  reached; about a third of the prose paragraphs also have their sentences shuffled;
* ``.html``: the anchor page kept whole (markup untouched), only its text varied;
* every figure outside a chip name is scaled by a random factor in [0.7, 1.42], keeping its
  decimals and thousands separators (``80GB`` -> ``97GB``, ``1,671`` -> ``1,958``);
* chip names are rewritten among the lexicon's aliases of the same chip that need no
  context (``RTX 4090 D`` / ``RTX4090D`` / ``4090D``, ``H100`` / ``GH100``, ``TPU v4`` /
  ``TPUv4`` ...), Han-script aliases only in Chinese articles.

All files are UTF-8 (as corpus/ is).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
CHIPS_TSV = ROOT / "src" / "specextract" / "data" / "chips.tsv"
DEFAULT_SEED = 20240601
GROUP_TAGS = {"zh": "hans", "tw": "hant", "hk": "hant", "cn2t": "hant", "en": "en", "mx": "mixed"}
HAN = re.compile(r"[\u3400-\u9fff]")
TAG = re.compile(r"(<[^>]*>)")
SENTENCE_ZH = re.compile(r"(?<=[。！？；])")
SENTENCE_EN = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")
NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"


# --- the sources -------------------------------------------------------------------------
def script_group(path: Path, text: str) -> str:
    """zh-Hans / zh-Hant / en / mixed, from the file name's tag, else from the text."""
    parts = path.stem.split("_")
    if len(parts) > 1 and parts[1] in GROUP_TAGS:
        return GROUP_TAGS[parts[1]]
    han = HAN.findall(text)
    if len(han) < 0.05 * len(text):
        return "en"
    import opencc  # only the untagged seed articles need it
    t2s = opencc.OpenCC("t2s")
    changed = sum(a != b for a, b in zip(han, t2s.convert("".join(han))))
    return "hant" if changed > 0.03 * len(han) else "hans"


def paragraphs(text: str) -> list[str]:
    return [p.strip("\n") for p in re.split(r"\n\s*\n", text) if p.strip()]


def load_sources() -> list[dict]:
    sources = []
    for p in sorted(CORPUS.iterdir()):
        if not p.is_file() or p.name.startswith("."):
            continue
        text = p.read_bytes().decode("utf-8-sig")
        paras = paragraphs(text)
        sources.append({"name": p.name, "ext": p.suffix.lower() or ".txt", "text": text,
                        "group": script_group(p, text), "title": paras[0], "body": paras[1:]})
    return sources


# --- chip aliases --------------------------------------------------------------------------
def load_aliases() -> tuple[re.Pattern, dict[str, tuple[str, list[str]]]]:
    """A pattern for every alias (longest first) and, per alias, its entity and the
    context-free aliases it may be swapped with."""
    by_entity: dict[str, list[tuple[str, bool]]] = {}
    for line in CHIPS_TSV.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("entity\t"):
            continue
        cols = line.split("\t") + [""] * 5
        entity, alias, context = cols[0], cols[1], cols[2]
        by_entity.setdefault(entity, []).append((alias, not context.strip()))
    table: dict[str, tuple[str, list[str]]] = {}
    for entity, aliases in by_entity.items():
        free = [a for a, ok in aliases if ok]
        for alias, ok in aliases:
            variants = []
            if ok:
                variants = sorted(set(free) | {a.replace(" ", "") for a in free})
            table[alias.lower()] = (entity, variants)
            table.setdefault(alias.replace(" ", "").lower(), (entity, variants))
    names = sorted(table, key=len, reverse=True)
    alt = "|".join(re.escape(n) for n in names)
    pattern = re.compile(rf"(?<![A-Za-z0-9])(?P<chip>{alt})(?![A-Za-z0-9])"
                         rf"|(?<![A-Za-z0-9_.#&])(?P<num>{NUMBER})", re.IGNORECASE)
    return pattern, table


# --- variation ------------------------------------------------------------------------------
def vary_number(s: str, rng: random.Random) -> str:
    commas = "," in s
    digits = s.replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    value = float(digits)
    if value == 0:
        return s
    new = value * math.exp(rng.uniform(-0.35, 0.35))
    if decimals:
        out = f"{new:,.{decimals}f}" if commas else f"{new:.{decimals}f}"
    else:
        n = max(1, round(new))
        out = f"{n:,}" if commas else str(n)
        if len(digits) > 1 and digits.startswith("0"):
            out = out.zfill(len(digits))
    return out


def vary_text(text: str, rng: random.Random, pattern: re.Pattern, aliases: dict,
              han_ok: bool) -> str:
    def sub(m: re.Match) -> str:
        if m.group("num") is not None:
            return vary_number(m.group("num"), rng)
        chip = m.group("chip")
        _, variants = aliases[chip.lower()]
        choices = [v for v in variants if han_ok or not HAN.search(v)]
        if not choices or rng.random() < 0.4:
            return chip
        return rng.choice(choices)
    return pattern.sub(sub, text)


def vary_html(text: str, rng: random.Random, pattern: re.Pattern, aliases: dict,
              han_ok: bool) -> str:
    parts = TAG.split(text)
    return "".join(p if i % 2 else vary_text(p, rng, pattern, aliases, han_ok)
                   for i, p in enumerate(parts))


def shuffle_sentences(para: str, group: str, rng: random.Random) -> str:
    if "\n" in para or "|" in para or para.startswith("#"):
        return para  # tables, lists, headings stay as they are
    splitter = SENTENCE_EN if group == "en" else SENTENCE_ZH
    sentences = [s for s in splitter.split(para) if s]
    if len(sentences) < 3:
        return para
    rng.shuffle(sentences)
    joiner = " " if group == "en" else ""
    return joiner.join(s.strip() if group == "en" else s for s in sentences)


def make_article(i: int, seed: int, sources: list[dict], groups: dict[str, list[dict]],
                 pattern: re.Pattern, aliases: dict) -> tuple[str, str, str]:
    """(file name, text, script group) of article ``i``."""
    rng = random.Random(f"{seed}/{i}")
    anchor = rng.choice(sources)
    group, ext = anchor["group"], anchor["ext"]
    han_ok = group in ("hans", "mixed")
    if ext in (".html", ".htm"):
        text = vary_html(anchor["text"], rng, pattern, aliases, han_ok)
    else:
        target = min(24_000, max(400, int(rng.lognormvariate(math.log(2200), 0.6))))
        peers = [s for s in groups[group] if s is not anchor]
        pool = list(anchor["body"])
        for s in rng.sample(peers, k=min(len(peers), rng.randint(1, 3))):
            pool.extend(s["body"])
        rng.shuffle(pool)
        out = [anchor["title"]]
        size = len(anchor["title"].encode())
        while size < target:
            if not pool:
                pool = list(rng.choice(groups[group])["body"])
                rng.shuffle(pool)
                continue
            para = pool.pop()
            if rng.random() < 0.35:
                para = shuffle_sentences(para, group, rng)
            out.append(para)
            size += len(para.encode()) + 2
        text = vary_text("\n\n".join(out) + "\n", rng, pattern, aliases, han_ok)
    name = f"{i:05d}_{group}_{anchor['name'].split('_')[0]}{ext}"
    return name, text, group


# --- the corpus folder -------------------------------------------------------------------------
def generator_hash() -> str:
    h = hashlib.sha256(Path(__file__).read_bytes())
    for p in sorted(CORPUS.iterdir()):
        if p.is_file():
            h.update(p.name.encode() + b"\0" + p.read_bytes())
    h.update(CHIPS_TSV.read_bytes())
    return h.hexdigest()[:16]


def build(n: int, seed: int, out_root: Path, force: bool = False) -> Path:
    folder = out_root / f"n{n}_s{seed}"
    manifest = folder / ".manifest.json"
    ident = {"articles": n, "seed": seed, "generator": generator_hash()}
    if not force and manifest.exists():
        try:
            old = json.loads(manifest.read_text())
            if all(old.get(k) == v for k, v in ident.items()):
                return folder
        except ValueError:
            pass
    sources = load_sources()
    groups: dict[str, list[dict]] = {}
    for s in sources:
        groups.setdefault(s["group"], []).append(s)
    pattern, aliases = load_aliases()
    tmp = out_root / f".n{n}_s{seed}.tmp"
    if tmp.exists():
        for p in tmp.iterdir():
            p.unlink()
    tmp.mkdir(parents=True, exist_ok=True)
    digest, total, sizes, by_group, by_ext = hashlib.sha256(), 0, [], {}, {}
    for i in range(n):
        name, text, group = make_article(i, seed, sources, groups, pattern, aliases)
        data = text.encode("utf-8")
        (tmp / name).write_bytes(data)
        digest.update(name.encode() + b"\0" + data)
        total += len(data)
        sizes.append(len(data))
        by_group[group] = by_group.get(group, 0) + 1
        ext = Path(name).suffix
        by_ext[ext] = by_ext.get(ext, 0) + 1
    sizes.sort()
    info = {**ident, "bytes": total, "mb": round(total / 1e6, 3),
            "article_bytes": {"min": sizes[0], "median": sizes[len(sizes) // 2],
                              "p95": sizes[int(len(sizes) * 0.95)], "max": sizes[-1],
                              "mean": round(total / n)},
            "by_script": dict(sorted(by_group.items())), "by_format": dict(sorted(by_ext.items())),
            "sha256": digest.hexdigest()}
    (tmp / ".manifest.json").write_text(json.dumps(info, indent=2) + "\n")
    if folder.exists():
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()
    tmp.rename(folder)
    return folder


def manifest_of(folder: Path) -> dict:
    return json.loads((folder / ".manifest.json").read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "scaled")
    ap.add_argument("--force", action="store_true", help="regenerate even if up to date")
    args = ap.parse_args(argv)
    for n in args.articles:
        folder = build(n, args.seed, args.out, args.force)
        m = manifest_of(folder)
        print(f"{folder}: {m['articles']} articles, {m['mb']} MB, sha256 {m['sha256'][:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
