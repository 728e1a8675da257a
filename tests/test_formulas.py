"""Formulas are read where they stand: TeX between dollars where the page gives it, MathML read
out as linear text otherwise, each once; a wiki's "[edit]" links are not text."""

from __future__ import annotations

import numpy as np
import pytest

from blockclf import Result, parse, segment
from blockclf.render import to_html, to_markdown, to_text

_MML = 'xmlns="http://www.w3.org/1998/Math/MathML"'
#: x = (−b ± √(b² − 4ac)) / 2a, as MathJax's demonstration page writes it, with no TeX
_QUADRATIC = (f"<math {_MML}><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup>"
              "<mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn>"
              "<mi>a</mi></mrow></mfrac></math>")


def page(body: str) -> Result:
    """Every block kept but hidden ones, as the renderers receive them."""
    doc = parse(f"<html><head><title>T</title></head><body>{body}</body></html>")
    blocks = segment(doc)
    kept = np.array([not b.hidden for b in blocks], dtype=bool)  # as the model leaves hidden text
    return Result(blocks=blocks, scores=np.full(len(blocks), 0.9), kept=kept, threshold=0.5, favor="balanced",
                  title="", url="https://site.org/a.html", name="page.html")


def test_mathml_without_tex_is_read_out_as_linear_text():
    res = page(f"<p>The roots are {_QUADRATIC} for any a.</p>")
    assert to_text(res).strip() == "The roots are x = (−b ± √(b^2 − 4ac))/(2a) for any a."


@pytest.mark.parametrize(("mathml", "linear"), [
    ("<msubsup><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></msubsup>"
     "<msub><mi>a</mi><mi>k</mi></msub>", "∑_(k = 1)^n a_k"),
    ("<mover><mi>x</mi><mo>˙</mo></mover><mo>=</mo><mo>−</mo><mi>β</mi><mi>z</mi>", "x˙ = −βz"),
    ("<mfenced><mi>a</mi><mi>b</mi></mfenced>", "(a, b)"),
    ("<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn>"
     "</mtd></mtr></mtable>", "[1, 0; 0, 1]"),
    ("<mtable><mtr><mtd><mn>4</mn></mtd><mtd><mo>−</mo><mi>i</mi></mtd></mtr><mtr><mtd><mi>x</mi></mtd>"
     "<mtd><mo>=</mo><mn>1</mn></mtd></mtr></mtable>", "[4, −i; x = 1]"),  # a value's sign; an aligned equation
    ("<mroot><mi>x</mi><mn>3</mn></mroot>", "x^(1/3)"),
    ("<munder><mi>lim</mi><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></munder><mi>f</mi>", "lim_(x → 0) f"),
    ("<munder><mi>m</mi><mn>1</mn></munder><mi>g</mi>", "m_1g"),  # a letter is no operator with limits
])
def test_mathml_constructs_read_as_linear_text(mathml, linear):
    assert to_text(page(f"<p>So <math {_MML}>{mathml}</math> holds.</p>")).strip() == f"So {linear} holds."


def test_tex_the_page_gives_is_written_between_dollars_and_unescaped_in_markdown():
    alt = r"{\displaystyle a_{ij}={\overline {a_{ji}}}}"
    res = page(f'<p>A matrix is Hermitian when <math alttext="{alt}"><mi>a</mi></math> for all i, j, and '
               f'<math display="block"><semantics><mi>A</mi><annotation encoding="application/x-tex">'
               r"A = A^{*}</annotation></semantics></math> says it at once.</p>")
    text = to_text(res)
    assert r"when $a_{ij}={\overline {a_{ji}}}$ for all i, j, and $$A = A^{*}$$ says" in text
    md = to_markdown(res)
    assert r"when $a_{ij}={\overline {a_{ji}}}$ for all" in md  # not a_\{ij\} nor \\overline
    assert r"$$A = A^{*}$$" in md
    html = to_html(res)
    assert r"$a_{ij}={\overline {a_{ji}}}$" in html and "<math" not in html


def test_a_tex_script_is_read_once_and_mathjaxs_drawing_of_it_not_at_all():
    res = page('<p>Six facets: <span class="MathJax_Preview"></span><span class="MathJax"><nobr>R</nobr></span>'
               '<script type="math/tex">R</script>esources, and so on.</p>'
               '<p>Energy is <span class="MathJax_Preview"></span><span class="MathJax" id="MathJax-Element-1-Frame">'
               "<nobr><span>E=mc2</span></nobr></span>"
               '<script type="math/tex" id="MathJax-Element-1">E = mc^2</script> exactly.</p>'
               '<p>And <script type="math/tex; mode=display">\\int_0^1 x\\,dx</script> too.</p>')
    assert to_text(res).split("\n") == ["Six facets: Resources, and so on.", "Energy is $E = mc^2$ exactly.",
                                        r"And $$\int_0^1 x\,dx$$ too."]


def test_other_scripts_and_a_drawing_with_no_script_after_it_stay_as_before():
    res = page('<p>Keep <span class="MathJax">this</span> text<script>var x = "$no$";</script>.</p>')
    assert to_text(res).strip() == "Keep this text."


def test_mediawiki_formula_reads_its_fallback_images_tex_not_its_hidden_mathml():
    res = page('<p>If a matrix <span class="mwe-math-element"><span class="mwe-math-mathml-inline '
               'mwe-math-mathml-a11y" style="display: none;"><math alttext="{\\displaystyle A}"><mi>A</mi></math>'
               '</span><img src="https://wikimedia.org/m/1.svg" class="mwe-math-fallback-image-inline" '
               'aria-hidden="true" alt="{\\displaystyle A}"></span> is square when <span class="mwe-math-element">'
               '<img class="mwe-math-fallback-image-display" src="https://wikimedia.org/m/2.svg" '
               'alt="{\\displaystyle A^{T}=A}"></span>.</p>')
    assert to_text(res).strip() == "If a matrix A is square when $$A^{T}=A$$."
    assert not any(b.hidden for b in res.blocks)


def test_katex_reads_its_tex_annotation_and_not_its_hidden_glyphs():
    res = page('<p>So <span class="katex"><span class="katex-mathml"><math><semantics><mrow><msup><mi>x</mi>'
               '<mn>2</mn></msup></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics>'
               '</math></span><span class="katex-html" aria-hidden="true"><span class="mord">x</span>'
               '<span class="msupsub">2</span></span></span> grows.</p>')
    assert to_text(res).strip() == "So $x^2$ grows."


def test_a_wikis_edit_links_beside_its_headings_are_not_text():
    res = page('<h2><span class="mw-headline">History</span><span class="mw-editsection"><span '
               'class="mw-editsection-bracket">[</span><a href="/w/index.php?action=edit&amp;section=1">edit</a>'
               '<span class="mw-editsection-bracket">]</span></span></h2><p>It began.</p>')
    assert to_text(res).split("\n") == ["History", "It began."]
    assert to_markdown(res).startswith("## History\n")


def test_linear_text_that_starts_with_a_dollar_is_escaped_in_markdown_as_text():
    res = page(f"<p>It costs <math {_MML}><mtext>$5*3</mtext></math> in all.</p>")
    assert to_text(res).strip() == "It costs $5*3 in all."
    assert "$5\\*3" in to_markdown(res)  # text, not TeX: its star escaped

