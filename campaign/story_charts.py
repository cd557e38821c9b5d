"""The statistics page's charts (pygal SVG without script, as campaign/charts.py): one bar per House
in the House's colour, where a picture reads faster than a table."""

from __future__ import annotations

import pygal
from django.utils.translation import gettext

from campaign.charts import SIZES, STYLE, _line_chart, _svg, _whole_numbers, house_words
from campaign.models import Campaign
from campaign.statistics_selectors import realm_statistics


def _bar_chart(*, size: str, colours: tuple[str, ...]) -> pygal.Bar:
    """A bar chart in the line charts' style and sizes (campaign/charts.py), bars in ``colours``."""
    dims = SIZES[size]
    style = _line_chart(size=size, colours=colours or STYLE.colors).config.style
    return pygal.Bar(
        style=style,
        width=dims["width"],
        height=dims["height"],
        legend_at_bottom=True,
        legend_at_bottom_columns=2 if size == "narrow" else None,
        truncate_legend=-1,
        truncate_label=-1,
        print_values=False,
        js=[],
    )


def stickers_chart(*, campaign: Campaign, size: str = "wide", stats: dict | None = None) -> str:
    """Chronicle stickers each House signed in each row (covered ones too)."""
    stats = stats or realm_statistics(campaign=campaign)
    chart = _bar_chart(size=size, colours=tuple(h.colour for h in stats["houses"]))
    chart.title = gettext("Chronicle stickers signed in each row")
    chart.x_labels = [row["label"] for row in stats["sticker_rows"]]
    for house in stats["houses"]:
        chart.add(
            house_words(house.name),
            [
                next((c["count"] for c in row["counts"] if c["house"] == house), 0)
                for row in stats["sticker_rows"]
            ],
        )
    chart.y_labels = _whole_numbers([c["count"] for row in stats["sticker_rows"] for c in row["counts"]])
    return _svg(chart)


def council_chart(*, campaign: Campaign, size: str = "wide", stats: dict | None = None) -> str:
    """How often each House led, moderated and won the vote, over the nights played at the table."""
    stats = stats or realm_statistics(campaign=campaign)
    chart = _bar_chart(size=size, colours=tuple(h.colour for h in stats["houses"]))
    chart.title = gettext("The council: Dilemmas led, moderated and won")
    chart.x_labels = [gettext("Led"), gettext("Moderated"), gettext("Votes won")]
    for row in stats["council"]:
        chart.add(house_words(row["house"].name), [row["led"], row["moderated"], row["won"]])
    chart.y_labels = _whole_numbers([row[k] for row in stats["council"] for k in ("led", "moderated", "won")])
    return _svg(chart)


# The statistics page's charts, by the name in their URL (the Resources chart is campaign/charts.py's).
STATISTICS_CHARTS = {"stickers": stickers_chart, "council": council_chart}
