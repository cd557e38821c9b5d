"""The colour of each House on every page and chart, fixed by its House number (1-12): the box
gives the Houses no colours, and a House keeps the same one for the whole campaign. Twelve hues
that stay apart on the parchment background and in print."""

HOUSE_COLOURS = (
    "#4e79a7",  # 1 blue
    "#e15759",  # 2 red
    "#59a14f",  # 3 green
    "#f28e2b",  # 4 orange
    "#b07aa1",  # 5 purple
    "#76b7b2",  # 6 teal
    "#c9a227",  # 7 gold
    "#9c755f",  # 8 brown
    "#ff9da7",  # 9 pink
    "#1f3a93",  # 10 navy
    "#8c1c13",  # 11 crimson
    "#5f6b6d",  # 12 slate
)


def house_colour(number: int) -> str:
    return HOUSE_COLOURS[(number - 1) % len(HOUSE_COLOURS)]
