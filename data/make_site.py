"""Write the small synthetic site in data/gardenclub/ used by notebooks/walkthrough.ipynb.

Every page is invented here (no real site's text): a cookie notice, a header with the site
menu, a breadcrumb, the article in <article class="post-body"> with a boxed "club tip" (content,
though its class says sidebar) and a share bar inside it, teasers of other posts written in
full sentences (boilerplate that reads like content), a sidebar of recent posts and a footer.
One tag-index page has no article at all, so the labelling step has a page where the selector
matches nothing. Run: python data/make_site.py
"""

from __future__ import annotations

import random
from html import escape
from pathlib import Path

TOPICS = [
    ("Planting garlic in autumn", "garlic"), ("Saving tomato seed", "tomatoes"), ("A pond for frogs", "ponds"),
    ("Pruning old apple trees", "apples"), ("Compost that does not smell", "compost"),
    ("Growing beans up a wigwam", "beans"), ("Keeping slugs off lettuce", "lettuce"),
    ("Dahlias from tubers", "dahlias"), ("Leaf mould in a wire bin", "leaves"), ("Sowing wildflower strips", "meadows"),
    ("Raised beds on clay", "clay"), ("Rhubarb forcing pots", "rhubarb"), ("Hedges for small birds", "hedges"),
    ("Winter squash storage", "squash"), ("Mulching strawberries", "strawberries"), ("Herbs on a windowsill", "herbs"),
    ("Potatoes in bags", "potatoes"), ("A rain barrel for the shed", "water"), ("Lavender cuttings", "lavender"),
    ("Bare-root roses", "roses"), ("Onion sets and bolting", "onions"), ("Greenhouse shading", "greenhouses"),
]
SENTENCES = [
    "Most of our members start with a single bed and a few packets of seed, and that is exactly the right size.",
    "The soil by the harbour wall is sandy, so it drains quickly and needs feeding more often than you might expect.",
    "Choose a spot that gets at least six hours of sun, and keep the wind off young plants with a low hurdle.",
    "We water in the early morning, when less is lost to the air and the leaves dry before evening.",
    "A thick layer of compost in spring does more for the {t} than any bottle of feed from the shop.",
    "Last year the {t} on the north plots came in two weeks later than on the south side of the lane.",
    "If the weather turns cold, a fleece held down with bricks is usually enough to see them through the night.",
    "Keep a notebook: dates of sowing, first flowers and first harvest tell you more than any catalogue.",
    "Birds are welcome here, but netting the {t} for a few weeks saves most of the crop.",
    "Our oldest member, who has grown {t} for fifty years, swears by a handful of wood ash in each hole.",
    "Do not be tempted to plant too closely; air moving between the plants keeps mildew away.",
    "When the first leaves yellow at the base, it is time to lift them and let them dry in the shed.",
    "The club's shared tools live in the green shed, and the key is with whoever is on the rota that week.",
    "Children from the primary school helped us with the {t} this spring and asked far better questions than we did.",
    "A short row of marigolds at the end of each bed draws hoverflies, which eat a great many aphids.",
    "None of this needs expensive equipment: a spade, a fork, a hoe and a watering can will carry you a long way.",
]
AUTHORS = ["Mara Quill", "Tobias Fenn", "Iris Calloway", "Dev Raman", "Elsie Marsh"]
MENU = ["Home", "Events", "Allotments", "Seed swap", "Join the club", "Contact"]


def article_page(i: int, title: str, tag: str, rng: random.Random, recent: list[str]) -> str:
    paras = []
    for _ in range(rng.randint(4, 7)):
        paras.append(" ".join(rng.sample(SENTENCES, rng.randint(2, 4))).format(t=tag))
    sub = rng.sample(["Getting started", "What we learned", "Through the year", "A note on timing"], 2)
    body = [f"<p>{escape(p)}</p>" for p in paras]
    body.insert(2, f"<h2>{sub[0]}</h2>")
    body.insert(len(body) - 1, f"<h2>{sub[1]}</h2>")
    if rng.random() < 0.5:
        body.insert(3, "<ul>" + "".join(f"<li>{escape(s)}</li>" for s in rng.sample(
            ["a sharp spade", "well-rotted compost", "twine and canes", "a soft brush for the seed trays",
             "old newspaper for the pots"], 3)) + "</ul>")
    tip = " ".join(rng.sample(SENTENCES, 2)).format(t=tag)
    body.insert(3, f'<aside class="sidebar-tip"><h4>Club tip</h4><p>{escape(tip)}</p></aside>')
    teasers = "".join(f"<p>{escape(n)}: {escape(rng.choice(SENTENCES).format(t=t))}</p>"
                      for n, t in rng.sample(TOPICS, 2))
    menu = "".join(f'<li><a href="/{m.lower().replace(" ", "-")}.html">{m}</a></li>' for m in MENU)
    day = 1 + (i * 7) % 28
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)} | Harbour Lane Garden Club</title>
<link rel="canonical" href="https://harbourlane-garden.example/posts/{tag}.html"></head>
<body>
<div class="cookie-consent">We use cookies to remember your settings.
<a href="/privacy.html">Privacy</a> <button>OK</button></div>
<header class="site-header"><a class="logo" href="/">Harbour Lane Garden Club</a>
<nav class="main-menu"><ul>{menu}</ul></nav>
</header>
<div class="breadcrumb"><a href="/">Home</a> › <a href="/posts/">Posts</a> › {escape(title)}</div>
<div class="layout">
<article class="post-body">
<h1>{escape(title)}</h1>
<p class="byline">By {AUTHORS[i % len(AUTHORS)]}, {day} April 2026</p>
{chr(10).join(body)}
<div class="share">Share this post: <a href="#">Email</a> <a href="#">Print</a> <a href="#">Copy link</a></div>
</article>
<section class="more-from-the-club"><h3>More from the club</h3>{teasers}</section>
<aside class="sidebar"><h3>Recent posts</h3><ul>{"".join(f'<li><a href="#">{escape(r)}</a></li>' for r in recent)}</ul>
<h3>Next meeting</h3><p>First Tuesday of the month, 7pm, in the church hall.</p></aside>
</div>
<footer class="site-footer"><p>© 2026 Harbour Lane Garden Club. Registered community group.</p>
<p><a href="/privacy.html">Privacy</a> · <a href="/contact.html">Contact</a> · <a href="/rss.xml">RSS</a></p></footer>
</body></html>
"""


def index_page(rng: random.Random) -> str:
    items = "".join(f'<li><a href="posts/{t}.html">{escape(n)}</a></li>' for n, t in TOPICS)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>All posts | Harbour Lane Garden Club</title>
<link rel="canonical" href="https://harbourlane-garden.example/posts/index.html"></head>
<body><header class="site-header"><a class="logo" href="/">Harbour Lane Garden Club</a></header>
<div class="post-list"><h1>All posts</h1><ul>{items}</ul></div>
<footer class="site-footer"><p>© 2026 Harbour Lane Garden Club.</p></footer></body></html>
"""


def main() -> None:
    out = Path(__file__).parent / "gardenclub"
    out.mkdir(exist_ok=True)
    rng = random.Random(7)
    for i, (title, tag) in enumerate(TOPICS):
        recent = [t for t, _ in rng.sample(TOPICS, 4)]
        (out / f"{tag}.html").write_text(article_page(i, title, tag, rng, recent), encoding="utf-8")
    (out / "index.html").write_text(index_page(rng), encoding="utf-8")


if __name__ == "__main__":
    main()
