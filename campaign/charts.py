"""Campaign charts as SVG (pygal): Prestige and Crave of each House across the games, and the
Resource positions at each game's end. Rendering reads through selectors only."""

import re

import pygal
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, pgettext
from pygal.style import Style

from campaign.legacy import RESOURCE_ROWS
from campaign.models import AccountPreference, Campaign, LedgerEntry, ResourceRow

SCRIPT = re.compile(r"<script\b[^>]*?(/>|>.*?</script>)", re.S)
STYLE = Style(
    background="transparent",
    plot_background="#fffdf7",
    foreground="#1f1a14",
    foreground_strong="#1f1a14",
    foreground_subtle="#d9cdb4",
    colors=("#9a6b12", "#1d6b3a", "#8c1c13", "#2b6cb0", "#6b3fa0", "#b8860b", "#2f4f4f", "#c05621"),
    font_family="Georgia, serif",
)


def _svg(chart) -> str:
    """The chart as SVG without any script: pygal's ``js=[]`` drops its third-party script
    (kozea.github.io/pygal.js) and its inline config script is cut here (the app's
    Content-Security-Policy allows no script but our own files). Text in the SVG is escaped by the
    XML serializer, so no "</script>" can hide inside the cut."""
    return SCRIPT.sub("", chart.render(is_unicode=True))


def prestige_crave_series(*, campaign: Campaign) -> tuple[list[str], dict[str, list[int]]]:
    """Cumulative Prestige and Crave per House after each game (entries outside a game count
    toward the next game). One query for the ledger, one for the games."""
    games = list(campaign.games.order_by("number").values_list("pk", "number"))
    labels = [pgettext("chart", "start")] + [gettext("Game {number}").format(number=n) for _, n in games]
    position = {pk: i + 1 for i, (pk, _) in enumerate(games)}
    entries = (
        LedgerEntry.objects.filter(house__campaign=campaign)
        .select_related("house")
        .order_by("created_at", "id")
    )
    series: dict[str, list[int]] = {}
    for house in campaign.houses.order_by("number"):
        for kind in ("prestige", "crave"):
            series[f"{house.name} {kind.capitalize()}"] = [0] * len(labels)
    for entry in entries:
        at = position.get(entry.game_id or 0, len(labels) - 1)
        key = f"{entry.house.name} {entry.kind.capitalize()}"
        for i in range(at, len(labels)):
            series[key][i] += entry.amount
    return labels, series


THICK = {"width": 3}
# Two sizes: the wide one for a laptop or the table screen, the narrow one (bigger text, legend
# below) for a 375 px phone; the page picks one with <picture>.
SIZES = {
    "wide": {"width": 900, "height": 360, "title_font_size": 18, "label_font_size": 13},
    "narrow": {"width": 380, "height": 440, "title_font_size": 17, "label_font_size": 13},
}


def _line_chart(*, size: str, colours: tuple[str, ...] = STYLE.colors, **options) -> pygal.Line:
    dims = SIZES[size]
    style = Style(
        **{key: getattr(STYLE, key) for key in ("background", "plot_background", "foreground")},
        foreground_strong=STYLE.foreground_strong,
        foreground_subtle=STYLE.foreground_subtle,
        font_family=STYLE.font_family,
        colors=colours,
        title_font_size=dims["title_font_size"],
        label_font_size=dims["label_font_size"],
        major_label_font_size=dims["label_font_size"],
        legend_font_size=dims["label_font_size"] + 1,
        opacity="1",
        stroke_opacity="1",
    )
    return pygal.Line(
        style=style,
        width=dims["width"],
        height=dims["height"],
        legend_at_bottom=True,
        legend_at_bottom_columns=2 if size == "narrow" else None,
        dots_size=4,
        truncate_legend=-1,
        js=[],
        **options,
    )


def house_words(name: str) -> str:
    """A House in a chart's legend, as the reader's language says it."""
    return gettext("House {name}").format(name=name)


def _whole_numbers(values: list[int]) -> list[int]:
    """Axis labels for points, which are whole: at most about ten of them."""
    low, high = min([0, *values]), max([1, *values])
    step = max(1, -(-(high - low) // 10))
    return list(range(low - low % step, high + step, step))


def _ledger_chart(*, campaign: Campaign, kind: str, size: str) -> str:
    """One line per House, in the House's colour: its Prestige (or Crave) after each game."""
    labels, series = prestige_crave_series(campaign=campaign)
    houses = list(campaign.houses.order_by("number"))
    chart = _line_chart(size=size, colours=tuple(h.colour for h in houses) or STYLE.colors)
    chart.title = (
        gettext("Prestige of each House across the games")
        if kind == "prestige"
        else gettext("Crave of each House across the games")
    )
    chart.x_labels = labels
    chart.y_labels = _whole_numbers([v for values in series.values() for v in values])
    for house in houses:
        chart.add(house_words(house.name), series[f"{house.name} {kind.capitalize()}"], stroke_style=THICK)
    return _svg(chart)


def prestige_chart(*, campaign: Campaign, size: str = "wide") -> str:
    return _ledger_chart(campaign=campaign, kind="prestige", size=size)


def crave_chart(*, campaign: Campaign, size: str = "wide") -> str:
    return _ledger_chart(campaign=campaign, kind="crave", size=size)


def resources_chart(*, campaign: Campaign, size: str = "wide") -> str:
    games = list(campaign.games.order_by("number"))
    chart = _line_chart(size=size, range=(1, 17))
    chart.title = gettext("Resources at each game's end (row 9 = centre)")
    chart.x_labels = [gettext("Game {number}").format(number=g.number) for g in games]
    for row in RESOURCE_ROWS:
        chart.add(
            str(ResourceRow(row).label),
            [(g.resources_final or {}).get(row) for g in games],
            stroke_style=THICK,
        )
    return _svg(chart)


# The charts the campaign page shows, by the name in their URL.
CHARTS = {"prestige": prestige_chart, "crave": crave_chart, "resources": resources_chart}


def chart_stamp(*, campaign: Campaign) -> int:
    """The campaign's last event: a cached chart is good until the next event."""
    return campaign.events.values_list("pk", flat=True).first() or 0


def chart_cache_key(
    *, campaign: Campaign, name: str, size: str, stamp: int, language: str | None = None
) -> str:
    """A chart's words are in one language: each language is kept apart (the active one by default)."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    return f"campaign-chart-{campaign.pk}-{name}-{size}-{stamp}-{language}"


def chart_languages(*, campaign: Campaign) -> list[str]:
    """The languages the campaign's members read (the site's own first): the charts drawn ahead."""
    known = {code for code, _ in settings.LANGUAGES}
    chosen = AccountPreference.objects.filter(user__memberships__campaign=campaign).values_list(
        "language", flat=True
    )
    return [
        settings.LANGUAGE_CODE,
        *sorted({code for code in chosen if code in known} - {settings.LANGUAGE_CODE}),
    ]
