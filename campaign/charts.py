"""Campaign charts as SVG (pygal): Prestige and Crave of each House across the games, and the
Resource positions at each game's end. Rendering reads through selectors only."""

import re

import pygal
from pygal.style import Style

from campaign.legacy import RESOURCE_ROWS
from campaign.models import Campaign, LedgerEntry

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
    labels = ["start"] + [f"Game {n}" for _, n in games]
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
        at = position.get(entry.game_id, len(labels) - 1)
        key = f"{entry.house.name} {entry.kind.capitalize()}"
        for i in range(at, len(labels)):
            series[key][i] += entry.amount
    return labels, series


def prestige_crave_chart(*, campaign: Campaign) -> str:
    labels, series = prestige_crave_series(campaign=campaign)
    chart = pygal.Line(
        style=STYLE,
        height=360,
        width=900,
        legend_at_bottom=True,
        show_minor_x_labels=True,
        dots_size=3,
        js=[],
    )
    chart.title = "Prestige and Crave across the games"
    chart.x_labels = labels
    for name, values in series.items():
        dashed = {"stroke_style": {"dasharray": "6, 4"}} if name.endswith("Crave") else {}
        chart.add(name, values, **dashed)
    return _svg(chart)


def resources_chart(*, campaign: Campaign) -> str:
    games = list(campaign.games.order_by("number"))
    chart = pygal.Line(
        style=STYLE, height=320, width=900, legend_at_bottom=True, range=(1, 17), dots_size=3, js=[]
    )
    chart.title = "Resources at each game's end (Resource Track row, 9 = centre)"
    chart.x_labels = [f"Game {g.number}" for g in games]
    for row in RESOURCE_ROWS:
        chart.add(row.capitalize(), [(g.resources_final or {}).get(row) for g in games])
    return _svg(chart)
