"""A sequence too wide for its card even compact is drawn as the list of its steps
(`diagrams.sequences.seqsteps`): who sends, an arrow in the message's form, who receives, the
label under them; a block's tag kept with its first step; names wrapped between words."""

from __future__ import annotations

import pytest

from inkcard.layout.diagrams.bands import CUT_CLEARANCE
from inkcard.layout.diagrams.labels import LabelSetter
from inkcard.layout.diagrams.marks import Label, Mark
from inkcard.layout.diagrams.mermaidkinds import Sequence, parse_diagram
from inkcard.layout.diagrams.sequences.seqsteps import layout_steps

ORDER = """sequenceDiagram
  autonumber
  participant U as 顾客
  participant P as Primary Region (eu-west-1)
  participant O as On-Call Site Reliability Engineer
  U->>P: 点击下单
  alt 库存足够
    P-->>O: promotion complete
    loop every 5 s
      O->>P: poll
    end
  else 库存不足
    P-xU: 提示缺货
  end
  Note over U,P: 超过 15 分钟未支付自动取消
"""


@pytest.fixture
def steps(fonts):
    seq = parse_diagram(ORDER)
    assert isinstance(seq, Sequence)
    return layout_steps(seq, LabelSetter(fonts).measure, 300.0)


def _labels(drawing) -> list[str]:
    return [" ".join(i.text.lines) for i in drawing.items if isinstance(i, Label)]


def test_every_label_is_drawn_once_in_the_order_written(steps) -> None:
    texts = _labels(steps)
    said = [
        "点击下单",
        "库存足够",
        "promotion complete",
        "every 5 s",
        "poll",
        "库存不足",
        "提示缺货",
    ]
    at = [texts.index(text) for text in said]
    assert at == sorted(at)
    assert steps.width == pytest.approx(300.0) and steps.rows


def test_names_wrap_between_words_never_inside_one(steps) -> None:
    names = [i.text for i in steps.items if isinstance(i, Label) and i.text.bold]
    wrapped = [lines.lines for lines in names if len(lines.lines) > 1]
    assert wrapped  # the long names do wrap on a 300-px list
    assert all(not line.endswith("-") for lines in wrapped for line in lines)
    assert any(
        line == "(eu-west-1)" or line.endswith("(eu-west-1)") for ls in wrapped for line in ls
    )


def test_a_reply_is_dashed_and_a_call_solid(steps) -> None:
    lines = [m for m in steps.items if isinstance(m, Mark) and m.stroke == "line"]
    shafts = [m for m in lines if m.width == 1.5 and len(m.ops) == 2]  # not an end's cross
    assert [m.dash is not None for m in shafts] == [False, True, False, False]


def test_each_box_is_named_with_who_is_in_it_before_the_steps(fonts) -> None:
    """Case 71's "Front end" and "Back end" boxes were dropped from its list of steps."""
    source = ORDER.replace(
        "  participant U as 顾客\n  participant P as Primary Region (eu-west-1)\n",
        "  box Aqua 前台\n  participant U as 顾客\n  participant P as Primary Region (eu-west-1)\n"
        "  end\n",
    )
    seq = parse_diagram(source)
    assert isinstance(seq, Sequence)
    drawing = layout_steps(seq, LabelSetter(fonts).measure, 300.0)
    labels = [i for i in drawing.items if isinstance(i, Label)]
    box = next(i for i in labels if i.text.lines == ("前台",))
    members = next(i for i in labels if " ".join(i.text.lines).startswith("顾客,"))
    first = next(i for i in labels if i.text.lines == ("点击下单",))
    assert box.y == members.y < first.y  # one row, before the first step
    assert box.x + box.text.width < members.x
    assert "On-Call" not in " ".join(members.text.lines)  # O is in no box


def test_a_blocks_bar_ends_where_a_cut_under_its_last_step_leaves_none(steps) -> None:
    """A bar that ran 6 px past its last step left a 3-px stub atop the next card (71)."""
    bars = [m for m in steps.items if isinstance(m, Mark) and m.stroke == "accent" and m.width == 3]
    assert bars
    for bar in bars:
        end = bar.ops[-1][2]
        last = max(bottom for _, bottom in steps.whole if bottom <= end + 1e-9)
        assert end - last < CUT_CLEARANCE


def test_a_rect_is_its_bar_with_no_tag(fonts) -> None:
    """A `rect` is a highlight, not a kind of step: "rect" set as a tag read as jargon (71)."""
    seq = parse_diagram("sequenceDiagram\n  rect rgb(200, 220, 255)\n    A->>B: hi\n  end\n")
    assert isinstance(seq, Sequence)
    drawing = layout_steps(seq, LabelSetter(fonts).measure, 300.0)
    assert "rect" not in _labels(drawing)
    assert any(isinstance(m, Mark) and m.stroke == "accent" and m.width == 3 for m in drawing.items)


def test_a_blocks_tag_is_kept_on_one_card_with_its_first_step(steps) -> None:
    """A cut between "loop every 5 s" and its step left the tag alone at a card's foot."""
    tag = next(i for i in steps.items if isinstance(i, Label) and i.text.lines == ("loop",))
    poll = next(i for i in steps.items if isinstance(i, Label) and i.text.lines == ("poll",))
    assert any(top <= tag.y and poll.y + poll.text.height <= bottom for top, bottom in steps.whole)


def test_an_article_draws_a_sequence_too_wide_for_its_column_as_its_steps() -> None:
    """Ten participants in a 343-px column set their labels at about 4 px in an inline SVG
    no reader can pinch larger; the article draws the steps instead, every label at 14 px."""
    import re
    from pathlib import Path

    from inkcard.layout.diagrams.svg import diagram_svg

    case = Path(__file__).parents[1] / "cases" / "mermaid" / "95-sequence-wide-dense.md"
    source = case.read_text("utf-8").split("```mermaid\n")[1].split("```")[0]
    svg = diagram_svg(source)
    width = float(re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+)', svg).group(1))
    sizes = {float(size) for size in re.findall(r'font-size="([0-9.]+)"', svg)}
    assert width < 400  # the column's width, so drawn at about 1:1
    assert min(sizes) >= 13
    assert all(
        label in svg for label in ("health checks failing in eu-west-1", "customers informed")
    )


SHOP = """sequenceDiagram
  autonumber
  actor U as 顾客
  participant APP as 小程序前端
  participant GW as 网关
  participant ORD as 订单服务
  participant PAY as 支付服务
  participant INV as 库存服务
  participant WMS as 仓储系统
  participant MSG as 消息通知
  U->>APP: 点击下单
  APP->>GW: 提交订单
  GW->>ORD: 创建订单
  ORD->>INV: 锁定库存
  alt 库存足够
    INV-->>ORD: 锁定成功
    ORD->>PAY: 发起支付
    loop 每 5 秒查询一次
      PAY-->>ORD: 支付状态
    end
    Note over ORD,PAY: 超过 15 分钟未支付自动取消
    ORD->>WMS: 通知发货
    WMS-->>MSG: 出库完成
    MSG-->>U: 您的订单已发货
  else 库存不足
    INV-->>ORD: 锁定失败
    ORD-->>APP: 提示缺货
  end
"""


def test_a_list_of_steps_a_little_too_long_for_two_cards_is_drawn_smaller_on_two(fonts) -> None:
    """Eight participants, twelve steps: in pop-art's frame the list at its size took three
    bands balanced half full (three cards); drawn at 0.88 or more of its size it takes two."""
    from inkcard import layout, themes
    from inkcard.layout.pages.quality import measure

    post = "# 下单到发货的每一步\n\n```mermaid\n" + SHOP + "```\n"
    options = layout.RenderOptions(width=440, height=586, split="autoSplit", mode="default-mode")
    pages = layout.layout_pages(post, themes.load("pop-art"), fonts, options)
    notes = [n for page in pages if (q := measure(page)) for n in q.notes]
    assert any(n.startswith("a wide sequence drawn as a list of its steps") for n in notes)
    assert len(pages) == 2
